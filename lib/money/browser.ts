/** What the browser may import from lib/money: the money formatter (pure; docs/decisions/041-module-entries.md). */
export { currencySymbol, formatMoney, minorToDecimal } from "./index";
