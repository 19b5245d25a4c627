import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

/**
 * Child processes stay in our process group: Ctrl-C in a terminal, or a supervisor that stops
 * the group (Playwright's webServer does), reaches all of them even if this script is killed
 * outright. When we stop them ourselves, each gets SIGTERM, then SIGKILL after a grace period.
 */
export interface Managed {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

export function startManaged(name: string, command: string, args: string[], options: SpawnOptions): Managed {
  const child = spawn(command, args, { ...options, detached: false });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : null))));
  return { name, child, exited };
}

function signal(m: Managed, name: NodeJS.Signals) {
  if (m.child.exitCode !== null || m.child.signalCode !== null) return;
  m.child.kill(name);
}

/** SIGTERM to each, then SIGKILL to whatever is left after the grace period. */
export async function stopAll(list: Managed[], graceMs = 10_000): Promise<void> {
  for (const m of list) signal(m, "SIGTERM");
  const timer = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), graceMs).unref());
  const done = Promise.all(list.map((m) => m.exited));
  if ((await Promise.race([done, timer])) === "timeout") {
    for (const m of list) signal(m, "SIGKILL");
    await done;
  }
}
