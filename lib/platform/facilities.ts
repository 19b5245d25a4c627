import fs from "node:fs";
import type { Facility } from "@/lib/facilities";
import type { PlatformConfig } from "./config";
import { PlatformConfigError } from "./errors";

/**
 * A facility's connection: the main connection's endpoint, CA, protocol and limits, with the
 * facility's own certificate, key and provider licence — and its own OAuth client when it has one
 * (REST), else the main client's credentials. Each facility's client gets its own transport, so
 * every request goes out with its facility's certificate over that facility's kept-alive sockets,
 * and its PEM files are watched for renewal like the main ones.
 */
export function facilityConfig(main: PlatformConfig, facility: Facility): PlatformConfig {
  if (!facility.id) return main;
  if (!facility.active) throw new PlatformConfigError(`Facility ${facility.code} is not active: its users cannot reach the platform until an administrator activates it.`);
  if (!facility.certFile || !facility.keyFile) throw new PlatformConfigError(`Facility ${facility.code} has no client certificate.`);
  let clientSecret = main.clientSecret;
  if (facility.oauthClientId && facility.oauthClientSecretFile) {
    try {
      clientSecret = fs.readFileSync(facility.oauthClientSecretFile, "utf8").trim();
    } catch {
      throw new PlatformConfigError(`Facility ${facility.code}: the OAuth client secret file ${facility.oauthClientSecretFile} cannot be read.`);
    }
  }
  return {
    ...main,
    clientId: facility.oauthClientId ?? main.clientId,
    clientSecret,
    tls: { ...main.tls, certFile: facility.certFile, keyFile: facility.keyFile },
    ...(facility.providerLicense ? { providerLicense: facility.providerLicense } : {}),
    // Its messages' fullUrls and source endpoint: below the clinic's base, one per facility (decision 074).
    ...(main.sourceEndpoint ? { sourceEndpoint: `${main.sourceEndpoint.replace(/\/+$/, "")}/facility/${facility.code}` } : {}),
    ...(facility.name?.en ? { providerName: facility.name.en } : {}),
  };
}
