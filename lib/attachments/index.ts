/** Supporting attachments: limits, type from the bytes, safe names, storage with SHA-256. */
export * from "./limits";
export * from "./sniff";
export * from "./names";
export * from "./store";
