/** What client components may use of lib/contracts. */
export { importContractsAction } from "./actions";
export type { ContractDiff, ContractLineError, PriceChange } from "./store";
