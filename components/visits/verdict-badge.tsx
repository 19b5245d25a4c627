import { getTranslations } from "next-intl/server";
import { Badge } from "@/components/ui/card";
import type { VisitVerdict } from "@/lib/db";

const TONES: Record<VisitVerdict | "waiting", "slate" | "green" | "red" | "amber" | "blue"> = {
  in_force: "green",
  not_in_force: "red",
  no_coverage: "red",
  benefit_exhausted: "red",
  benefit_low: "amber",
  preauth_required: "amber",
  not_registered: "blue",
  platform_error: "slate",
  waiting: "slate",
};

/** A visit's verdict in words (both languages), with a tone that is never the only signal. */
export async function VerdictBadge({ verdict }: { verdict: VisitVerdict | null }) {
  const t = await getTranslations("visits.verdicts");
  const key = verdict ?? "waiting";
  return (
    <span data-verdict={key}>
      <Badge tone={TONES[key]}>{t(key)}</Badge>
    </span>
  );
}
