/** lib/testing: helpers for tests only — throw-away databases on PGlite and PostgreSQL. */
export { testDatabases } from "./databases";
export type { TestDatabase } from "./databases";
