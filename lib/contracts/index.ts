/**
 * lib/contracts: the payer contracts — price lists per insurer (network, class), imported from
 * the shared CSV format and versioned by date (docs/decisions/089). Owns `contract_prices`.
 */
export {
  DEMO_CONTRACT_FILE,
  contractCounts,
  contractPriceFor,
  contractPricesFor,
  diffContracts,
  importContracts,
  listContractPrices,
  seedDemoContracts,
  type ContractDiff,
  type ContractLineError,
  type ContractPrice,
  type ImportOptions,
  type ImportResult,
  type PriceChange,
} from "./store";
export { VAT_PERCENT_NON_SAUDI, computeShares, isCitizenId, shareTotals, vatPercentFor, type AnnualTerms, type BenefitTerms, type ShareLine, type ShareResult } from "./share";
export { answerCovers, claimLineShares, contractLinePrices, liveClaimShares, type LiveShareLine, type PriceLine, type ShareItem } from "./claim-shares";
