/** What client components may use of lib/contracts. */
export { claimSharesAction, contractPricesAction, importContractsAction, type LiveShareLine } from "./actions";
export type { ContractDiff, ContractLineError, PriceChange } from "./store";
