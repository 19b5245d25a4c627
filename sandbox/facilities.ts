import fs from "node:fs";
import path from "node:path";
import { certificateThumbprint, ensureSandboxPki, issueCertificate, pkiPaths } from "./pki";

/**
 * A clinic group's facilities, as the national exchange registers them: each has its own provider
 * licence and its own client certificate (issued here by the sandbox's CA). The sandbox accepts a
 * facility's certificate for tokens and requests, and its messages must carry that facility's
 * licence as sender — so a portal that sends a facility's work with another facility's
 * certificate is refused, as it would be by the exchange. The main certificate (client.pem)
 * stays the clinic's default facility with the reference data's licence.
 *
 * Stored in `<dataDir>/facilities.json`; certificates in `<dataDir>/pki/facility-<code>.pem`.
 */
export interface SandboxFacility {
  code: string;
  license: string;
  cert: string;
  key: string;
}

const CODE = /^[a-z][a-z0-9-]{1,31}$/;
const LICENSE = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;

function registryFile(dataDir: string): string {
  return path.join(dataDir, "facilities.json");
}

export function readFacilities(dataDir: string): SandboxFacility[] {
  try {
    const parsed = JSON.parse(fs.readFileSync(registryFile(dataDir), "utf8")) as unknown;
    return Array.isArray(parsed) ? (parsed as SandboxFacility[]) : [];
  } catch {
    return [];
  }
}

/** Registers a facility (or returns the one with this code) and issues its client certificate. */
export async function ensureFacility(dataDir: string, code: string, license: string, now = new Date()): Promise<SandboxFacility & { created: boolean }> {
  if (!CODE.test(code)) throw new Error(`facility code '${code}' must be 2–32 lower-case letters, digits or '-', starting with a letter`);
  if (!LICENSE.test(license)) throw new Error(`licence '${license}' must be 3–64 letters, digits, '.', '_' or '-'`);
  const existing = readFacilities(dataDir);
  const same = existing.find((f) => f.code === code);
  if (same) {
    if (same.license !== license) throw new Error(`facility '${code}' is registered with licence ${same.license}`);
    return { ...same, created: false };
  }
  if (existing.some((f) => f.license === license)) throw new Error(`licence ${license} belongs to another facility`);
  const pki = await ensureSandboxPki(dataDir, now);
  const issued = await issueCertificate({ certPem: pki.ca, keyPem: fs.readFileSync(pki.paths.caKey, "utf8") }, { commonName: `clinic-exchange-${code}`, usage: "client", now });
  const dir = pkiPaths(dataDir).dir;
  const facility: SandboxFacility = { code, license, cert: path.join(dir, `facility-${code}.pem`), key: path.join(dir, `facility-${code}-key.pem`) };
  fs.writeFileSync(facility.key, issued.keyPem, { mode: 0o600 });
  fs.writeFileSync(facility.cert, issued.certPem, { mode: 0o644 });
  const file = registryFile(dataDir);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify([...existing, facility], null, 2));
  fs.renameSync(`${file}.tmp`, file);
  return { ...facility, created: true };
}

/**
 * The running sandbox's view of the registry: re-read when facilities.json or a certificate file
 * changes (an admin command adds a facility from another process), and a per-licence count of the
 * requests each certificate made (`GET /_admin/facilities`).
 */
export class FacilityCertificates {
  private cached: { key: string; byThumbprint: Map<string, SandboxFacility> } | undefined;
  /** Requests per licence, and per kind (a REST route's name or a message's event). */
  private readonly requests = new Map<string, Map<string, number>>();

  constructor(private readonly dataDir: string) {}

  private stamp(files: string[]): string {
    return files
      .map((f) => {
        try {
          const s = fs.statSync(f);
          return `${f}:${s.mtimeMs}:${s.size}`;
        } catch {
          return `${f}:-`;
        }
      })
      .join("|");
  }

  private table(): Map<string, SandboxFacility> {
    const facilities = readFacilities(this.dataDir);
    const key = this.stamp([registryFile(this.dataDir), ...facilities.map((f) => f.cert)]);
    if (this.cached?.key !== key) {
      const byThumbprint = new Map<string, SandboxFacility>();
      for (const f of facilities) {
        try {
          byThumbprint.set(certificateThumbprint(fs.readFileSync(f.cert, "utf8")), f);
        } catch {
          // A facility whose certificate file is gone cannot connect.
        }
      }
      this.cached = { key, byThumbprint };
    }
    return this.cached.byThumbprint;
  }

  /** The facility a presented client certificate belongs to, if any. */
  byThumbprint(thumbprint: string): SandboxFacility | undefined {
    return this.table().get(thumbprint);
  }

  countRequest(license: string | undefined, kind: string): void {
    if (!license) return;
    const byKind = this.requests.get(license) ?? new Map<string, number>();
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    this.requests.set(license, byKind);
  }

  report(mainLicense: string | undefined): { code: string; license: string; requests: number; byKind: Record<string, number> }[] {
    const row = (code: string, license: string) => {
      const byKind = Object.fromEntries(this.requests.get(license) ?? []);
      return { code, license, requests: Object.values(byKind).reduce((a, b) => a + b, 0), byKind };
    };
    return [row("main", mainLicense ?? ""), ...readFacilities(this.dataDir).map((f) => row(f.code, f.license))];
  }
}
