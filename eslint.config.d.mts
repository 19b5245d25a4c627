/** Types of what lib/boundaries.test.ts reads from eslint.config.mjs: the map of lib/ (docs/decisions/064). */
export declare const LIB_MAP: { layer: string; modules: string[] }[];
declare const config: unknown[];
export default config;
