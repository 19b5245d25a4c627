import { getTranslations } from "next-intl/server";
import type { SubmissionView } from "@/lib/submissions";
import type { EvidenceLineChoice } from "./evidence-form";

/** The statuses at which the payer holds the submission and may take information about it (decision 115). */
const SENDABLE = ["sent", "pended", "complete", "partial", "denied"];

export function mayReceiveEvidence(s: SubmissionView["submission"]): boolean {
  return SENDABLE.includes(s.status) && !!s.identifierValue;
}

/** The lines the sender may name: each line of the request with its code and the payer's decision. */
export async function evidenceLines(view: SubmissionView): Promise<EvidenceLineChoice[]> {
  const t = await getTranslations("evidence");
  const items = Array.isArray((view.submission.claim as { item?: unknown }).item) ? ((view.submission.claim as { item: { sequence?: number; productOrService?: { coding?: { code?: string }[] } }[] }).item) : [];
  return items.flatMap((item) => {
    if (typeof item.sequence !== "number") return [];
    const line = view.decision?.lines.find((l) => l.kind === "item" && l.sequence === item.sequence);
    const code = item.productOrService?.coding?.[0]?.code ?? "—";
    return [{ sequence: item.sequence, label: t("line", { sequence: item.sequence, code, decision: line ? t(`decisions.${line.decision}`) : "—" }) }];
  });
}
