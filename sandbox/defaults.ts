/**
 * The sandbox's defaults, in a file of their own: env.ts (read by credentials.ts, which server.ts
 * imports) needs them, and taking them from server.ts made an import cycle that breaks under
 * CommonJS loaders (tsx scripts: "Cannot access 'DEFAULT_SANDBOX_PORT' before initialization").
 */
export const DEFAULT_SANDBOX_PORT = 9443;
export const DEFAULT_SANDBOX_DATA_DIR = ".sandbox";
export const DEFAULT_ADJUDICATION_DELAY_MS = 3000;
