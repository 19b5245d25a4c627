/**
 * lib/net: who is asking — the trusted-proxy rule and the client's address. No dependencies but
 * Node's, so the configuration (lib/env.ts) can parse TRUSTED_PROXIES without importing lib/http.
 */
export { PEER_ADDRESS_HEADER, PEER_TLS_HEADER, clientAddress, isSecureRequest, parseTrustedProxies, peerIsTrusted } from "./client-address";
export type { TrustedProxies } from "./client-address";
export { isHostValue, trustedForwarded, withTrustedForwarding } from "./forwarded";
export type { ForwardedView } from "./forwarded";
