import fs from "node:fs";
import path from "node:path";

/**
 * PGlite allows exactly one process per data directory. This lock file makes that rule visible:
 * the owner's PID is written into it, a second process is told who holds it (the admin CLI then
 * talks to that process instead, see lib/admin/socket.ts), and a lock left by a dead process is
 * taken over.
 */
export class DataDirBusyError extends Error {
  override name = "DataDirBusyError";
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(
      `The database in ${path.dirname(lockFile)} is open in another process (PID ${pid}). ` +
        `Stop that process, or remove ${lockFile} if no such process is running.`,
    );
  }
}

export function lockFilePath(dataDir: string): string {
  return path.join(dataDir, "pglite.lock");
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The PID holding the data dir, or undefined when it is free (or held by a dead process). */
export function lockHolder(dataDir: string): number | undefined {
  try {
    const { pid } = JSON.parse(fs.readFileSync(lockFilePath(dataDir), "utf8")) as { pid: number };
    return isAlive(pid) && pid !== process.pid ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the lock or throws DataDirBusyError; returns a release function. */
export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockFilePath(dataDir);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, "wx", 0o600);
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
      fs.closeSync(fd);
      const release = () => {
        try {
          const { pid } = JSON.parse(fs.readFileSync(file, "utf8")) as { pid: number };
          if (pid === process.pid) fs.unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let pid = 0;
      try {
        pid = (JSON.parse(fs.readFileSync(file, "utf8")) as { pid: number }).pid;
      } catch {
        // A torn or empty lock file: treat as stale.
      }
      if (pid === process.pid) throw new Error(`This process already holds ${file}.`);
      if (isAlive(pid)) throw new DataDirBusyError(file, pid);
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the database lock ${file}.`);
}
