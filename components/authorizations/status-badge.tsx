import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/card";
import type { SubmissionKind, SubmissionStatus } from "@/lib/db";
import { statusLabel } from "@/lib/i18n";
import type { StatusOutcome } from "@/lib/i18n";

/**
 * A submission's status in words and colour (the word carries the meaning, not the colour), from the
 * portal's one status vocabulary (lib/i18n/status-words.ts). Pass the outcome so a decision that
 * pays nothing reads "Not payable", never "Approved" or "Partly approved".
 */
export function StatusBadge({ status, kind = "preauthorization", outcome }: { status: SubmissionStatus; kind?: SubmissionKind; outcome?: StatusOutcome }) {
  const t = useTranslations("statusWords");
  const label = statusLabel(kind, status, outcome);
  return (
    <span data-testid="status-badge" data-status={status} data-word={label.word}>
      <Badge tone={label.tone}>{t(label.key)}</Badge>
    </span>
  );
}
