/**
 * The seam for "Open as advanced authorization" (docs/decisions/096; advanced authorizations are another area's): lib/inbox does
 * not know advanced authorizations. The composition root registers one opener at start; the
 * "Received, not matched" page shows the button only when one is registered, and its server
 * action calls it. The opener records the message as an authorization (in its own transaction)
 * and returns where to go; the inbox row is then marked applied to that submission.
 */
export interface AdvancedAuthorizationOpener {
  (input: { inboxId: string; body: string; userId: string }): Promise<{ submissionId: string; href: string }>;
}

const KEY = Symbol.for("clinic-exchange.inbox.advanced-authorization-opener");
type Holder = { [KEY]?: AdvancedAuthorizationOpener };

/** Registers (or, with undefined, removes) the opener. Kept on globalThis: Next bundles routes separately. */
export function registerAdvancedAuthorizationOpener(opener: AdvancedAuthorizationOpener | undefined): void {
  (globalThis as Holder)[KEY] = opener;
}

export function advancedAuthorizationOpener(): AdvancedAuthorizationOpener | undefined {
  return (globalThis as Holder)[KEY];
}
