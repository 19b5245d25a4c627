import path from "node:path";
import readline from "node:readline";
import { startManaged, type Managed } from "./processes";

export interface SandboxRun {
  process: Managed;
  url: string;
  dataDir: string;
}

/**
 * Starts the platform sandbox as its own process (its own store, never the portal's data
 * directory) and waits for its "ready" line. Its log lines are passed through with a prefix.
 */
export async function startSandboxProcess(root: string, timeoutMs = 60_000): Promise<SandboxRun> {
  const dataDir = path.resolve(process.env.SANDBOX_DATA_DIR || ".sandbox");
  const child = startManaged("sandbox", process.execPath, ["--import", "tsx", path.join(root, "sandbox", "main.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, SANDBOX_DATA_DIR: dataDir },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    void child.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited during start-up (exit ${code})`));
    });
    readline.createInterface({ input: child.child.stdout! }).on("line", (line) => {
      console.log(`[sandbox] ${line}`);
      const ready = /^sandbox ready on (\S+)/.exec(line);
      if (ready) {
        clearTimeout(timer);
        resolve({ process: child, url: ready[1]!, dataDir });
      }
    });
  });
}
