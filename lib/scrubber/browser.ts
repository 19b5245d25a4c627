/** What client components may use of lib/scrubber: the shape of a finding (docs/decisions/090). */
export type { ScrubFinding, Severity, Words } from "./types";
