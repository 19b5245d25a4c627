import fs from "node:fs";
import path from "node:path";

/**
 * Append-only JSON-lines journal. Every state change is one line, written with `fsync` before the
 * HTTP answer is sent; the state is rebuilt by replaying the file at start.
 *
 * A crash can only tear the LAST line (appends are sequential): a last line that does not parse is
 * cut off at start and reported. A bad line anywhere else means the file was edited or damaged,
 * and the sandbox refuses to start rather than silently drop history.
 */
export class Journal<E> {
  private fd: number | undefined;

  private constructor(
    readonly file: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Opens (creating if needed) the journal and returns it with the events it already holds. */
  static open<E>(file: string, onTornLine?: (bytes: number) => void): { journal: Journal<E>; events: E[] } {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const events: E[] = [];
    if (fs.existsSync(file)) {
      const text = fs.readFileSync(file, "utf8");
      let offset = 0;
      let lineNo = 0;
      while (offset < text.length) {
        const nl = text.indexOf("\n", offset);
        const end = nl === -1 ? text.length : nl;
        const line = text.slice(offset, end);
        lineNo++;
        if (line.trim().length > 0) {
          try {
            events.push(JSON.parse(line) as E);
          } catch {
            const isLast = nl === -1 || text.slice(nl + 1).trim().length === 0;
            if (!isLast) throw new Error(`${file}: line ${lineNo} is not valid JSON; the journal is damaged`);
            const goodBytes = Buffer.byteLength(text.slice(0, offset), "utf8");
            fs.truncateSync(file, goodBytes);
            onTornLine?.(Buffer.byteLength(text, "utf8") - goodBytes);
            break;
          }
        }
        offset = end + 1;
      }
      // A file that ends without a newline (but whose last line parsed) gets one, so the next
      // append starts on a fresh line.
      const size = fs.statSync(file).size;
      if (size > 0) {
        const fdCheck = fs.openSync(file, "r");
        const last = Buffer.alloc(1);
        fs.readSync(fdCheck, last, 0, 1, size - 1);
        fs.closeSync(fdCheck);
        if (last.toString() !== "\n") fs.appendFileSync(file, "\n");
      }
    }
    const fd = fs.openSync(file, "a", 0o600);
    return { journal: new Journal<E>(file, fd), events };
  }

  /** Appends events as lines and fsyncs them. */
  append(...events: E[]): void {
    if (this.fd === undefined) throw new Error("journal is closed");
    if (events.length === 0) return;
    const data = events.map((e) => `${JSON.stringify(e)}\n`).join("");
    fs.writeSync(this.fd, data);
    fs.fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== undefined) {
      fs.closeSync(this.fd);
      this.fd = undefined;
    }
  }
}
