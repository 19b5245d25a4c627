import type { Db, VisitListSource } from "@/lib/db";
import { createVisitList, activeInsurers, type CreatedList } from "./lists";
import { checkVisitItems, readVisitCsv, type VisitRowInput } from "./rows";
import { createRun } from "./runs";

export interface ImportInput {
  name: string;
  source: VisitListSource;
  createdBy?: string;
  /** A CSV text (upload) or items (API, gateway, picked patients). */
  csv?: string;
  items?: VisitRowInput[];
  register?: boolean;
  lowThresholdPercent?: number;
  allowSandboxTestIds: boolean;
  /** `now`: start a run at once; a date: schedule it; absent: no run yet. */
  run?: "now" | Date;
  now?: Date;
}

/** One way in for every source: check the rows, store the list with its bad-rows report, optionally start or schedule a run. */
export async function importVisitList(db: Db, input: ImportInput): Promise<CreatedList & { run?: { id: string; status: string; runAt: string; total: number } }> {
  const options = { insurers: await activeInsurers(db), allowSandboxTestIds: input.allowSandboxTestIds };
  const checked = input.csv !== undefined ? readVisitCsv(input.csv, options) : checkVisitItems(input.items ?? [], options);
  const list = await createVisitList(db, { name: input.name, source: input.source, createdBy: input.createdBy, register: input.register, lowThresholdPercent: input.lowThresholdPercent, ...checked });
  if (!input.run || list.accepted === 0) return list;
  const run = await createRun(db, { listId: list.listId, runAt: input.run === "now" ? undefined : input.run, createdBy: input.createdBy, now: input.now });
  return { ...list, run: { id: run.id, status: run.status, runAt: run.runAt.toISOString(), total: run.total } };
}
