import type { Bundle, Resource } from "@medplum/fhirtypes";
import { type Read } from "./errors";
import { checkStructure } from "./structure";
import { isObject, list, num, text } from "./values";

export interface BundleEntryView {
  fullUrl?: string;
  resourceType?: string;
  /** The entry's resource exactly as received (checked against R4 with the bundle). */
  resource?: Record<string, unknown>;
  searchMode?: string;
  /** batch/transaction responses: `201 Created` … */
  responseStatus?: string;
}

export interface BundleView {
  type: string;
  total?: number;
  timestamp?: string;
  links: { relation: string; url: string }[];
  entries: BundleEntryView[];
  notes: string[];
}

/** Reads a Bundle of any type (searchset, message, batch-response …). Throws FhirReadError when not valid R4. */
export function readBundle(json: unknown): Read<BundleView, Bundle> {
  const report = checkStructure(json, "Bundle");
  const r = json as Record<string, unknown>;
  const view: BundleView = {
    type: String(r.type),
    links: list(r.link).flatMap((l) => (text(l.relation) && text(l.url) ? [{ relation: l.relation as string, url: l.url as string }] : [])),
    entries: list(r.entry).map((e) => {
      const entry: BundleEntryView = {};
      if (text(e.fullUrl)) entry.fullUrl = e.fullUrl as string;
      if (isObject(e.resource)) {
        entry.resource = e.resource;
        if (text(e.resource.resourceType)) entry.resourceType = e.resource.resourceType as string;
      }
      if (isObject(e.search) && text(e.search.mode)) entry.searchMode = e.search.mode as string;
      if (isObject(e.response) && text(e.response.status)) entry.responseStatus = e.response.status as string;
      return entry;
    }),
    notes: report.notes,
  };
  const total = num(r.total);
  if (total !== undefined) view.total = total;
  if (text(r.timestamp)) view.timestamp = r.timestamp as string;
  return { view, raw: json as Bundle };
}

/** The resources of one type in a bundle view, as received (match entries of a searchset by default). */
export function bundleResources<T extends Resource = Resource>(bundle: BundleView, resourceType: T["resourceType"], options: { includeAll?: boolean } = {}): T[] {
  // The bundle was checked against R4 as a whole, so an entry whose resourceType matches is a T.
  const isWanted = (e: BundleEntryView): e is BundleEntryView & { resource: T } =>
    e.resource !== undefined && e.resourceType === resourceType && (options.includeAll || e.searchMode === undefined || e.searchMode === "match");
  return bundle.entries.filter(isWanted).map((e) => e.resource);
}

/** Narrows JSON the portal stored or received to a resource type by its `resourceType` (no structure check). */
export function isResourceOf<T extends Resource>(value: unknown, resourceType: T["resourceType"]): value is T {
  return typeof value === "object" && value !== null && (value as { resourceType?: unknown }).resourceType === resourceType;
}

/** Checks any resource the portal reads in depth (a Claim read back, a Task …) against R4; returns it as received. */
export function readResource<T extends Resource>(json: unknown, resourceType: T["resourceType"]): Read<{ notes: string[] }, T> {
  const report = checkStructure(json, resourceType);
  return { view: { notes: report.notes }, raw: json as T };
}
