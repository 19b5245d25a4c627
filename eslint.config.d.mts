/** Types of what lib/boundaries.test.ts reads from eslint.config.mjs: the map of lib/ (docs/decisions/064) and the owned tables (127, 128). */
export declare const LIB_MAP: { layer: string; modules: string[] }[];
/** One entry per owner: its tables and the files outside it still reading them directly (docs/decisions/127, 128). */
export declare const OWNED_TABLES: { owner: string; tables: string[]; stillReading: string[] }[];
/** The owned-table rule's configuration blocks built from some entries (OWNED_TABLES by default). */
export declare function ownedTableBlocks(entries?: { owner: string; tables: string[]; stillReading: string[] }[]): import("eslint").Linter.Config[];
declare const config: unknown[];
export default config;
