import type { Db } from "@/lib/db";
import { submissionLabels } from "@/lib/submissions";
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
  /** The claim's or authorization's label (lib/submissions/labels.ts): "C-1024" and "patient · service · day". */
  number?: string;
  subject?: string;
}

export interface LiveBoardView {
  counts: BoardCounts[];
  feed: FeedItem[];
}

/** The live board's data: counts per status of the last seven days and the latest 20 events (with patients' names). */
export async function liveBoardView(db: Db, locale: string): Promise<LiveBoardView> {
  const [counts, events] = await Promise.all([statusCounts(db, liveBoardSince()), recentLiveEvents(db, 20)]);
  const labels = await submissionLabels(db, events.map((e) => e.submissionId), locale);
  const feed: FeedItem[] = events.map((e) => {
    const label = e.submissionId ? labels.get(e.submissionId) : undefined;
    return label ? { ...e, number: label.number, subject: label.subject } : e;
  });
  return {
    counts: (["claim", "preauthorization"] as const).map((kind) => ({
      kind,
      statuses: counts.filter((c) => c.kind === kind).map((c) => ({ status: c.status, count: c.count })),
    })),
    feed,
  };
}
