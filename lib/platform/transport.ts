import fs from "node:fs";
import { Agent, buildConnector } from "undici";
import { DEFAULT_TIMEOUTS, type PlatformConfig } from "./config";
import { PlatformConfigError } from "./errors";
import { silentLogger, type PlatformLogger } from "./logger";

/**
 * The mTLS transport: one undici Agent (keep-alive, pipelining 1, capped sockets) whose connector
 * presents the client certificate. PEM files are read once and re-read when they change on disk
 * (checked at most every `checkIntervalMs`), e.g. after `pki:renew-client`: a new Agent with the new
 * certificate takes over and the old one closes once its in-flight requests finish — the platform
 * refuses tokens of the old certificate, so its kept-alive sockets must not be reused.
 */

export interface TlsMaterial {
  cert: string;
  key: string;
  ca?: string;
  /** Increments on every reload. */
  version: number;
}

export interface TransportStats {
  /** Completed TLS handshakes (new connections) of this transport. */
  tlsHandshakes: number;
  /** Connection attempts that failed (TCP, TLS, refused certificate). */
  connectFailures: number;
  /** Times the PEM files were re-read after a change. */
  reloads: number;
}

let processHandshakes = 0;

/** TLS handshakes made by every platform transport of this process (for the benchmark). */
export function tlsHandshakeCount(): number {
  return processHandshakes;
}

interface FileStamp {
  file: string;
  mtimeMs: number;
  size: number;
}

function stamp(file: string): FileStamp {
  const s = fs.statSync(file);
  return { file, mtimeMs: s.mtimeMs, size: s.size };
}

function readPem(variable: string, file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new PlatformConfigError(
      `${variable} points to ${file}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
      variable,
    );
  }
}

export class PlatformTransport {
  readonly stats: TransportStats = { tlsHandshakes: 0, connectFailures: 0, reloads: 0 };
  private material: TlsMaterial;
  private stamps: FileStamp[];
  private agent: Agent;
  private lastCheck = 0;
  private closed = false;

  constructor(
    private readonly config: PlatformConfig,
    private readonly options: { checkIntervalMs?: number; logger?: PlatformLogger; now?: () => number } = {},
  ) {
    this.material = this.read(1);
    this.stamps = this.currentStamps();
    this.agent = this.makeAgent(this.material);
    this.lastCheck = this.now();
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private files(): [string, string][] {
    const { certFile, keyFile, caFile } = this.config.tls;
    return [["PLATFORM_CLIENT_CERT", certFile], ["PLATFORM_CLIENT_KEY", keyFile], ...(caFile ? [["PLATFORM_CA", caFile] as [string, string]] : [])];
  }

  private read(version: number): TlsMaterial {
    const { certFile, keyFile, caFile } = this.config.tls;
    return {
      cert: readPem("PLATFORM_CLIENT_CERT", certFile),
      key: readPem("PLATFORM_CLIENT_KEY", keyFile),
      ...(caFile ? { ca: readPem("PLATFORM_CA", caFile) } : {}),
      version,
    };
  }

  private currentStamps(): FileStamp[] {
    try {
      return this.files().map(([, f]) => stamp(f));
    } catch {
      return [];
    }
  }

  private makeAgent(material: TlsMaterial): Agent {
    const timeouts = { ...DEFAULT_TIMEOUTS, ...this.config.timeouts };
    const connector = buildConnector({
      cert: material.cert,
      key: material.key,
      ...(material.ca ? { ca: material.ca } : {}),
      timeout: timeouts.connectMs,
      keepAlive: true,
    });
    const stats = this.stats;
    return new Agent({
      connections: this.config.connections ?? 16,
      pipelining: 1,
      keepAliveTimeout: this.config.keepAliveTimeoutMs ?? 30_000,
      keepAliveMaxTimeout: 10 * 60_000,
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
      connect: (opts, callback) => {
        connector(opts, (error, socket) => {
          if (error) stats.connectFailures++;
          else {
            stats.tlsHandshakes++;
            processHandshakes++;
          }
          (callback as (e: Error | null, s: typeof socket) => void)(error, socket);
        });
      },
    });
  }

  /** The PEM material in use (re-read first when the files changed). */
  tls(): TlsMaterial {
    this.refresh();
    return this.material;
  }

  /** The dispatcher for the next request. */
  dispatcher(): Agent {
    this.refresh();
    return this.agent;
  }

  /** Re-reads the PEM files when their size or mtime changed; cheap (a few stat calls, rate-limited). */
  refresh(force = false): void {
    if (this.closed) return;
    const now = this.now();
    if (!force && now - this.lastCheck < (this.options.checkIntervalMs ?? 2_000)) return;
    this.lastCheck = now;
    const stamps = this.currentStamps();
    const changed =
      stamps.length !== this.stamps.length ||
      stamps.some((s, i) => s.mtimeMs !== this.stamps[i]?.mtimeMs || s.size !== this.stamps[i]?.size);
    if (!changed) return;
    let next: TlsMaterial;
    try {
      next = this.read(this.material.version + 1);
    } catch (error) {
      // A half-written file during renewal: keep the old material, look again next time.
      this.options.logger?.warn(`client certificate files changed but could not be read: ${(error as Error).message}`);
      return;
    }
    this.stamps = stamps;
    if (next.cert === this.material.cert && next.key === this.material.key && next.ca === this.material.ca) return;
    const old = this.agent;
    this.material = next;
    this.agent = this.makeAgent(next);
    this.stats.reloads++;
    (this.options.logger ?? silentLogger).info("client certificate files changed on disk: new connections use the new certificate");
    void old.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.agent.close();
  }
}
