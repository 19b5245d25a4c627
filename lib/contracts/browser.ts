/** What client components may use of lib/contracts. */
export { claimSharesAction, importContractsAction, type LiveShareLine } from "./actions";
export type { ContractDiff, ContractLineError, PriceChange } from "./store";
