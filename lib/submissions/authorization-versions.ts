import { and, eq, inArray } from "drizzle-orm";
import { submissions, type Db, type SubmissionStatus } from "@/lib/db";
import { isUuid } from "@/lib/ids";

/**
 * The versions of a prior authorization (docs/decisions/114; guide v2.7 Table 37): a change —
 * extend, add or remove services, resubmit what was cut or refused — is a new request that names
 * the version it changes in `Claim.related` (relationship `prior`, kept here as `replaces_id`) and
 * keeps its preAuthRef. The chain is every version linked that way, drafts left out; the current
 * one is the newest the payer approved (fully or in part), or, before any approval, the newest.
 */
export interface AuthorizationVersion {
  id: string;
  status: SubmissionStatus;
  createdAt: Date;
  decidedAt: Date | null;
  replacesId: string | null;
  totalMinor: number | null;
  currency: string | null;
  preAuthRef?: string;
  current: boolean;
}

const APPROVED: readonly SubmissionStatus[] = ["complete", "partial"];
/** A version in flight: a newer change of it is still waiting for the payer. */
const OPEN: readonly SubmissionStatus[] = ["queued", "sent", "pended"];
/** How far the chain is followed (a guard against a loop in stored links). */
const MAX_VERSIONS = 50;

const columns = {
  id: submissions.id,
  status: submissions.status,
  createdAt: submissions.createdAt,
  decidedAt: submissions.decidedAt,
  replacesId: submissions.replacesId,
  totalMinor: submissions.totalMinor,
  currency: submissions.currency,
  response: submissions.response,
};
type Row = { id: string; status: SubmissionStatus; createdAt: Date; decidedAt: Date | null; replacesId: string | null; totalMinor: number | null; currency: string | null; response: Record<string, unknown> | null };

/** Which of the versions is current: the newest approved, else the newest. Input in any order. */
export function currentVersionOf<T extends { status: SubmissionStatus; createdAt: Date }>(versions: readonly T[]): T | undefined {
  const newestFirst = [...versions].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  return newestFirst.find((v) => APPROVED.includes(v.status)) ?? newestFirst[0];
}

/** Every version of the authorization `id` belongs to, newest first, the current one marked. Empty when it is not one. */
export async function authorizationVersions(db: Db, id: string): Promise<AuthorizationVersion[]> {
  if (!isUuid(id)) return [];
  const byId = new Map<string, Row>();
  const one = async (key: string) =>
    (await db.select(columns).from(submissions).where(and(eq(submissions.id, key), eq(submissions.kind, "preauthorization"))).limit(1))[0] as Row | undefined;
  // Back to the first version…
  let root = await one(id);
  if (!root) return [];
  byId.set(root.id, root);
  while (root.replacesId && byId.size < MAX_VERSIONS) {
    const earlier = await one(root.replacesId);
    if (!earlier || byId.has(earlier.id)) break;
    byId.set(earlier.id, earlier);
    root = earlier;
  }
  // …then every change made from it, level by level.
  const expanded = new Set<string>();
  let frontier = [root.id];
  while (frontier.length > 0 && expanded.size < MAX_VERSIONS) {
    frontier.forEach((id) => expanded.add(id));
    const later = (await db
      .select(columns)
      .from(submissions)
      .where(and(inArray(submissions.replacesId, frontier), eq(submissions.kind, "preauthorization")))) as Row[];
    frontier = [];
    for (const row of later) {
      byId.set(row.id, row);
      if (!expanded.has(row.id)) frontier.push(row.id);
    }
  }
  const versions = [...byId.values()].filter((v) => v.status !== "draft");
  const current = currentVersionOf(versions);
  return versions
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .map(({ response, ...v }) => {
      const preAuthRef = typeof response?.preAuthRef === "string" ? response.preAuthRef : undefined;
      return { ...v, ...(preAuthRef ? { preAuthRef } : {}), current: v.id === current?.id };
    });
}

/**
 * Whether the version may be changed now: approved (fully or in part) and neither overridden by an
 * approved later version nor the subject of a change still waiting for the payer.
 */
export function changeableVersion(versions: readonly AuthorizationVersion[], id: string): boolean {
  const self = versions.find((v) => v.id === id);
  if (!self || !APPROVED.includes(self.status)) return false;
  return !versions.some((v) => v.createdAt > self.createdAt && (APPROVED.includes(v.status) || OPEN.includes(v.status)));
}
