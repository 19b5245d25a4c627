/** Types of what lib/boundaries.test.ts reads from eslint.config.mjs: the map of lib/ (docs/decisions/064) and the owned tables (127, 128). */
export declare const LIB_MAP: { layer: string; modules: string[] }[];
/** One entry per owner: its tables and the files outside it still reading them directly (docs/decisions/127, 128). */
export declare const OWNED_TABLES: { owner: string; tables: string[]; stillReading: string[] }[];
declare const config: unknown[];
export default config;
