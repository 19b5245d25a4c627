import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/card";
import type { SubmissionStatus } from "@/lib/db";

const TONES: Record<SubmissionStatus, "slate" | "green" | "red" | "amber" | "blue"> = {
  draft: "slate",
  queued: "blue",
  sent: "blue",
  pended: "amber",
  complete: "green",
  partial: "amber",
  denied: "red",
  rejected: "red",
  failed: "red",
  cancelled: "slate",
};

/** A submission's status in words and colour (the word carries the meaning, not the colour). */
export function StatusBadge({ status, use = "preauthorization" }: { status: SubmissionStatus; use?: "preauthorization" | "claim" }) {
  const t = useTranslations("authorizations.status");
  const label = use === "preauthorization" && (status === "complete" || status === "partial" || status === "denied") ? t(`decided.${status}`) : t(status);
  return (
    <span data-testid="status-badge" data-status={status}>
      <Badge tone={TONES[status]}>{label}</Badge>
    </span>
  );
}
