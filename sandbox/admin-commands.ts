import { sandboxCredentials } from "./credentials";
import { renewClientCertificate } from "./pki";
import { ensureFacility } from "./facilities";
import { sandboxVariable } from "./env";
import { DEFAULT_SANDBOX_DATA_DIR, DEFAULT_SANDBOX_PORT } from "./server";

/** Shape of an admin CLI command (mirrors the CLI registry's interface; reconciled there). */
export interface AdminCommand {
  name: string;
  summary: string;
  usage: string;
  needsDb: boolean;
  run(args: { flags: Record<string, string[]>; stdin: () => Promise<string> }): Promise<{ text: string; json: unknown }>;
}

function single(flags: Record<string, string[]>, name: string): string | undefined {
  const values = flags[name];
  if (!values || values.length === 0) return undefined;
  if (values.length > 1) throw new Error(`--${name} was given more than once`);
  return values[0];
}

function rejectUnknown(flags: Record<string, string[]>, allowed: string[]): void {
  const unknown = Object.keys(flags).filter((f) => !allowed.includes(f));
  if (unknown.length > 0) throw new Error(`unknown flag(s): ${unknown.map((f) => `--${f}`).join(", ")}; allowed: ${allowed.map((f) => `--${f}`).join(", ") || "none"}`);
}

function dataDirFrom(flags: Record<string, string[]>): string {
  const value = single(flags, "data-dir") ?? sandboxVariable("SANDBOX_DATA_DIR") ?? DEFAULT_SANDBOX_DATA_DIR;
  if (value.trim() === "") throw new Error("--data-dir must not be empty");
  return value;
}

function portFrom(flags: Record<string, string[]>): number {
  const raw = single(flags, "port") ?? sandboxVariable("SANDBOX_PORT") ?? String(DEFAULT_SANDBOX_PORT);
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`--port / SANDBOX_PORT must be a port number from 1 to 65535 (got '${raw}')`);
  }
  return port;
}

export const sandboxAdminCommands: AdminCommand[] = [
  {
    name: "sandbox:facility",
    summary: "Register a facility with the platform sandbox: its provider licence and its own client certificate (issued by the sandbox's CA)",
    usage: "sandbox:facility --code <code> --license <provider licence> [--data-dir <dir>]",
    needsDb: false,
    async run({ flags }) {
      rejectUnknown(flags, ["code", "license", "data-dir"]);
      const code = single(flags, "code");
      const license = single(flags, "license");
      if (!code || !license) throw new Error("--code and --license are required");
      const f = await ensureFacility(dataDirFrom(flags), code, license);
      return {
        text: [`${f.created ? "registered" : "already registered"} facility ${f.code} (licence ${f.license})`, `cert ${f.cert}`, `key  ${f.key}`].join("\n"),
        json: { code: f.code, license: f.license, cert: f.cert, key: f.key, created: f.created },
      };
    },
  },
  {
    name: "sandbox:credentials",
    summary: "Show the platform sandbox's base URL, OAuth client and certificate paths (creates the PKI if missing)",
    usage: "sandbox:credentials [--data-dir <dir>] [--port <port>] [--show-secrets]",
    needsDb: false,
    async run({ flags }) {
      rejectUnknown(flags, ["data-dir", "port", "show-secrets"]);
      const show = flags["show-secrets"] !== undefined;
      const c = await sandboxCredentials(dataDirFrom(flags), portFrom(flags));
      const lines = [
        `baseUrl       ${c.baseUrl}`,
        `tokenUrl      ${c.tokenUrl}`,
        `clientId      ${c.clientId}`,
        `clientSecret  ${c.clientSecret}`,
        `cert          ${c.cert}`,
        `key           ${c.key}`,
        `ca            ${c.ca}`,
        `providerOrgId ${c.providerOrgId}`,
        ...(show ? [`webhookSecret ${c.webhookSecret}`, `adminToken    ${c.adminToken}`] : []),
      ];
      const json = show
        ? c
        : {
            baseUrl: c.baseUrl,
            tokenUrl: c.tokenUrl,
            clientId: c.clientId,
            clientSecret: c.clientSecret,
            cert: c.cert,
            key: c.key,
            ca: c.ca,
            providerOrgId: c.providerOrgId,
          };
      return { text: lines.join("\n"), json };
    },
  },
  {
    name: "pki:renew-client",
    summary: "Issue a new one-year client certificate for the platform sandbox; tokens of the old one stop working",
    usage: "pki:renew-client [--data-dir <dir>]",
    needsDb: false,
    async run({ flags }) {
      rejectUnknown(flags, ["data-dir"]);
      const renewed = await renewClientCertificate(dataDirFrom(flags));
      return {
        text: [
          `new client certificate ${renewed.cert}`,
          `key                    ${renewed.key}`,
          `valid until            ${renewed.notAfter}`,
          `thumbprint (x5t#S256)  ${renewed.thumbprint}`,
          "Tokens bound to the previous certificate are refused from now on; request a new token.",
        ].join("\n"),
        json: renewed,
      };
    },
  },
];
