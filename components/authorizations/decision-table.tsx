import { DecisionLines } from "@/components/claims/decision-lines";
import type { DecisionView } from "@/lib/submissions";

/** The decision per service on authorization pages (and a claim just submitted from the form). */
export async function DecisionTable({ decision }: { decision: DecisionView }) {
  return <DecisionLines decision={decision} variant="authorization" />;
}
