import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray } from "drizzle-orm";
import { audit, type Caller } from "@/lib/audit";
import type { Db, Tx } from "@/lib/db";
import { contractPrices, insurers } from "@/lib/db";
import { parsePriceListCsv, priceFor, priceRowKey, type PriceListLineError, type PriceListRow, type PriceQuery } from "@/lib/fhir";

/**
 * Payer contracts (docs/decisions/089): import of a price list in the shared CSV format, the
 * diff against what is stored, and the price of a claim line on its service date. The only
 * writer of `contract_prices`.
 */

export type ContractPrice = typeof contractPrices.$inferSelect;

export type ContractLineError = Omit<PriceListLineError, "problem"> & { problem: PriceListLineError["problem"] | "insurer_unknown" };

/** One price as the diff names it. */
export interface PriceChange {
  insurerId: string;
  network: string;
  coverageClass: string;
  system: string;
  code: string;
  effectiveFrom: string;
  /** Before (changed, removed) and after (added, changed). */
  before?: { priceMinor: number; effectiveTo: string | null; isPackage: boolean; includes: string[]; authorizationRequired: boolean };
  after?: { priceMinor: number; effectiveTo: string | null; isPackage: boolean; includes: string[]; authorizationRequired: boolean };
}

export interface ContractDiff {
  added: PriceChange[];
  changed: PriceChange[];
  removed: PriceChange[];
  unchanged: number;
}

export type ImportResult =
  | { ok: true; applied: boolean; insurers: string[]; rows: number; diff: ContractDiff }
  | { ok: false; errors: ContractLineError[] };

const versionKey = (r: { insurerId: string; network: string; coverageClass: string; system: string; code: string; effectiveFrom: string }) => `${priceRowKey(r)}|${r.effectiveFrom}`;
const termsOf = (r: Pick<PriceListRow, "priceMinor" | "effectiveTo" | "isPackage" | "includes" | "authorizationRequired">) => ({
  priceMinor: r.priceMinor,
  effectiveTo: r.effectiveTo,
  isPackage: r.isPackage,
  includes: [...r.includes],
  authorizationRequired: r.authorizationRequired,
});
const sameTerms = (a: ReturnType<typeof termsOf>, b: ReturnType<typeof termsOf>) =>
  a.priceMinor === b.priceMinor && a.effectiveTo === b.effectiveTo && a.isPackage === b.isPackage && a.authorizationRequired === b.authorizationRequired && a.includes.join(";") === b.includes.join(";");

/** The diff of a parsed file against the stored prices of the insurers it names (the file is their whole list). */
export function diffContracts(stored: readonly ContractPrice[], incoming: readonly PriceListRow[]): ContractDiff {
  const before = new Map(stored.map((r) => [versionKey(r), r]));
  const after = new Map(incoming.map((r) => [versionKey(r), r]));
  const diff: ContractDiff = { added: [], changed: [], removed: [], unchanged: 0 };
  const ident = (r: ContractPrice | PriceListRow) => ({ insurerId: r.insurerId, network: r.network, coverageClass: r.coverageClass, system: r.system, code: r.code, effectiveFrom: r.effectiveFrom });
  for (const [key, row] of after) {
    const old = before.get(key);
    if (!old) diff.added.push({ ...ident(row), after: termsOf(row) });
    else if (!sameTerms(termsOf(old), termsOf(row))) diff.changed.push({ ...ident(row), before: termsOf(old), after: termsOf(row) });
    else diff.unchanged++;
  }
  for (const [key, row] of before) if (!after.has(key)) diff.removed.push({ ...ident(row), before: termsOf(row) });
  return diff;
}

export interface ImportOptions {
  /** Only report (errors and diff); nothing is written. */
  dryRun?: boolean;
  /** The file's name, for the audit entry. */
  fileName?: string;
  clock?: () => Date;
}

/**
 * Imports a price list: every line is checked (errors by line; one bad line and nothing is
 * written), the insurers named must exist, and for each insurer the file replaces its stored
 * list — prices of other days stay as their own versions only if the file repeats them. One
 * transaction with its audit entry.
 */
export async function importContracts(db: Db, caller: Caller, csv: string, options: ImportOptions = {}): Promise<ImportResult> {
  const parsed = parsePriceListCsv(csv);
  const errors: ContractLineError[] = [...parsed.errors];
  const named = [...new Set(parsed.rows.map((r) => r.insurerId))];
  const known = named.length ? new Set((await db.select({ id: insurers.id }).from(insurers).where(inArray(insurers.id, named))).map((r) => r.id)) : new Set<string>();
  for (const r of parsed.rows) if (!known.has(r.insurerId)) errors.push({ line: r.line, column: "insurer", problem: "insurer_unknown", value: r.insurerId.slice(0, 40) });
  if (errors.length === 0 && parsed.rows.length === 0) errors.push({ line: 1, column: "row", problem: "required" });
  if (errors.length > 0) {
    errors.sort((a, b) => a.line - b.line);
    if (!options.dryRun) await audit(db, { actor: caller.actor, action: "contracts.import", outcome: "failure", requestId: caller.requestId, ip: caller.ip, details: { file: options.fileName, errors: errors.length } });
    return { ok: false, errors };
  }
  const at = (options.clock ?? (() => new Date()))();
  return db.transaction(async (tx) => {
    const stored = await tx.select().from(contractPrices).where(inArray(contractPrices.insurerId, named)).for("update");
    const diff = diffContracts(stored, parsed.rows);
    if (!options.dryRun) {
      await writeContracts(tx, named, parsed.rows, at);
      await audit(tx, {
        actor: caller.actor,
        action: "contracts.import",
        outcome: "success",
        requestId: caller.requestId,
        ip: caller.ip,
        details: { file: options.fileName, insurers: named, rows: parsed.rows.length, added: diff.added.length, changed: diff.changed.length, removed: diff.removed.length },
      });
    }
    return { ok: true as const, applied: !options.dryRun, insurers: named, rows: parsed.rows.length, diff };
  });
}

async function writeContracts(tx: Tx, insurerIds: readonly string[], rows: readonly PriceListRow[], at: Date) {
  await tx.delete(contractPrices).where(inArray(contractPrices.insurerId, [...insurerIds]));
  for (let i = 0; i < rows.length; i += 500) {
    await tx.insert(contractPrices).values(
      rows.slice(i, i + 500).map((r) => ({
        insurerId: r.insurerId,
        network: r.network,
        coverageClass: r.coverageClass,
        system: r.system,
        code: r.code,
        priceMinor: r.priceMinor,
        effectiveFrom: r.effectiveFrom,
        effectiveTo: r.effectiveTo,
        isPackage: r.isPackage,
        includes: r.includes,
        authorizationRequired: r.authorizationRequired,
        importedAt: at,
      })),
    );
  }
}

/** Every stored price of an insurer (all versions), for the settings page and the scrubber. */
export async function listContractPrices(db: Db | Tx, insurerId: string): Promise<ContractPrice[]> {
  return db.select().from(contractPrices).where(eq(contractPrices.insurerId, insurerId)).orderBy(asc(contractPrices.system), asc(contractPrices.code), asc(contractPrices.effectiveFrom));
}

/** How many prices each insurer has (settings page). */
export async function contractCounts(db: Db): Promise<Map<string, number>> {
  const rows = await db.select({ insurerId: contractPrices.insurerId }).from(contractPrices);
  const out = new Map<string, number>();
  for (const r of rows) out.set(r.insurerId, (out.get(r.insurerId) ?? 0) + 1);
  return out;
}

/** The contract price of one service for one coverage on its service date (most specific version in force). */
export async function contractPriceFor(db: Db | Tx, q: PriceQuery): Promise<ContractPrice | undefined> {
  const rows = await db.select().from(contractPrices).where(and(eq(contractPrices.insurerId, q.insurerId), eq(contractPrices.system, q.system), eq(contractPrices.code, q.code)));
  return priceFor(rows, q);
}

/**
 * The contract prices of many services of one coverage in ONE query (the scrubber's facts for a
 * claim of any length, docs/decisions/093): per line, in order, the price in force on its date or
 * undefined.
 */
export async function contractPricesFor(
  db: Db | Tx,
  plan: { insurerId: string; network?: string; coverageClass?: string },
  lines: readonly { system: string; code: string; date: string }[],
): Promise<(ContractPrice | undefined)[]> {
  if (lines.length === 0) return [];
  const codes = [...new Set(lines.map((l) => l.code))];
  const rows = await db.select().from(contractPrices).where(and(eq(contractPrices.insurerId, plan.insurerId), inArray(contractPrices.code, codes)));
  const byService = new Map<string, ContractPrice[]>();
  for (const r of rows) {
    const key = `${r.system}|${r.code}`;
    byService.set(key, [...(byService.get(key) ?? []), r]);
  }
  return lines.map((l) => {
    const candidates = byService.get(`${l.system}|${l.code}`);
    return candidates ? priceFor(candidates, { ...plan, system: l.system, code: l.code, date: l.date }) : undefined;
  });
}

/** The demo contract file shipped in the repository (read by the portal's demo seed and by the sandbox). */
export const DEMO_CONTRACT_FILE = path.join("contracts", "demo-contracts.csv");

/**
 * Imports the demo contracts once, when no contract is stored yet and the demo insurers exist
 * (embedded sandbox only, like the demo patients). Returns whether it imported.
 */
export async function seedDemoContracts(db: Db, root: string = process.cwd()): Promise<boolean> {
  const [any] = await db.select({ id: contractPrices.id }).from(contractPrices).limit(1);
  if (any) return false;
  const file = path.join(root, DEMO_CONTRACT_FILE);
  if (!fs.existsSync(file)) return false;
  const result = await importContracts(db, { actor: { kind: "system", name: "startup" } }, fs.readFileSync(file, "utf8"), { fileName: DEMO_CONTRACT_FILE });
  return result.ok;
}
