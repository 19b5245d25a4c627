/** The platform's eligibility error codes and the message keys (`eligibility.errors.*`) that say them. */
export const ERROR_KEYS: Record<string, "err001" | "err002" | "err003" | "err004" | "err005"> = {
  "ERR-001": "err001",
  "ERR-002": "err002",
  "ERR-003": "err003",
  "ERR-004": "err004",
  "ERR-005": "err005",
};
