/**
 * A small FIFO semaphore (abortable). The client takes a slot BEFORE its rate-limit permit, so a
 * permit is only taken when the request can go out at once: a permit taken and then queued behind
 * busy sockets would reach the platform late and bunch up with the next window's requests.
 */
export class Gate {
  private active = 0;
  private readonly waiting: { resolve: () => void; reject: (e: unknown) => void; signal?: AbortSignal; onAbort?: () => void; batch?: boolean }[] = [];

  constructor(private readonly size: number) {}

  /** A batch caller (decision 043) waits behind every interactive one; interactive callers never wait behind batch ones. */
  async enter(signal?: AbortSignal, priority: "interactive" | "batch" = "interactive"): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.active < this.size) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const entry: (typeof this.waiting)[number] = { resolve, reject, signal, batch: priority === "batch" };
      if (signal) {
        entry.onAbort = () => {
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(signal.reason);
        };
        signal.addEventListener("abort", entry.onAbort, { once: true });
      }
      const firstBatch = entry.batch ? -1 : this.waiting.findIndex((w) => w.batch);
      if (firstBatch >= 0) this.waiting.splice(firstBatch, 0, entry);
      else this.waiting.push(entry);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) {
        // The slot passes straight to the next caller.
        if (next.onAbort) next.signal?.removeEventListener("abort", next.onAbort);
        next.resolve();
      } else {
        this.active--;
      }
    };
  }
}
