import type { Db } from "@/lib/db";
import { recentLiveEvents, statusCounts } from "./queries";
import { liveBoardSince } from "./range";

export interface BoardCounts {
  kind: "claim" | "preauthorization";
  statuses: { status: string; count: number }[];
}

export interface FeedItem {
  id: number;
  at: string;
  /** `submission.status`, or (docs/decisions/047) `information.request` / `payment.remittance` with its `note`. */
  kind?: string;
  note?: string | null;
  submissionKind: string | null;
  submissionId: string | null;
  status: string | null;
  /** The patient's name: from the server's read (live events carry none), so it follows a moment later. */
  patient?: string | null;
}

export interface LiveBoardView {
  counts: BoardCounts[];
  feed: FeedItem[];
}

/** The live board's data: counts per status of the last seven days and the latest 20 events (with patients' names). */
export async function liveBoardView(db: Db): Promise<LiveBoardView> {
  const [counts, feed] = await Promise.all([statusCounts(db, liveBoardSince()), recentLiveEvents(db, 20)]);
  return {
    counts: (["claim", "preauthorization"] as const).map((kind) => ({
      kind,
      statuses: counts.filter((c) => c.kind === kind).map((c) => ({ status: c.status, count: c.count })),
    })),
    feed,
  };
}
