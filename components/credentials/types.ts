import type { ActionResult } from "@/lib/auth";

/** A secret just created: shown once, then gone (lib/api-access/actions.ts). */
export type CreatedSecret =
  | { kind: "key"; name: string; key: string; prefix: string }
  | { kind: "client"; name: string; clientId: string; clientSecret: string }
  | { kind: "token"; name: string; token: string };

export type CreateSecretAction = (previous: unknown, form: FormData) => Promise<ActionResult<CreatedSecret>>;
export type RevokeAction = (previous: unknown, form: FormData) => Promise<ActionResult>;
/** The settings pages' message catalogues; both hold the same keys for these components. */
export type CredentialsNamespace = "apiAccess" | "gatewayTokens";
