/**
 * The sandbox's variables that its CLI and credential helpers read outside the server process
 * (the server itself parses them in env.ts). A blank value counts as unset, as in lib/env.ts.
 */
export type SandboxVariable = "SANDBOX_DATA_DIR" | "SANDBOX_PORT" | "SANDBOX_WEBHOOK_SECRET" | "PROVIDER_ORG_ID";

export function sandboxVariable(name: SandboxVariable): string | undefined {
  const value = process.env[name];
  return value === undefined || value.trim() === "" ? undefined : value;
}
