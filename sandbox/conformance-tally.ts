import fs from "node:fs";
import { nphies } from "../lib/fhir";

/**
 * What the exchange's rule checker thought of every message the sandbox received, whatever its
 * conformance level: per event, how many messages came and how many passed clean; per rule, how
 * many messages it found wrong. Counts only — no message, identifier or patient detail is kept —
 * so a trainer or a test run can ask "would the real exchange have taken what we sent?"
 * (`GET /_admin/conformance`, decision 092: the rule table measured on real traffic). With a file, the
 * report is also kept there (written a moment after each message and at close), so a test run can
 * read it after the sandbox has stopped (scripts/conformance-report.ts).
 */
export interface ConformanceReport {
  messages: number;
  /** Messages with no error finding (warnings allowed). */
  clean: number;
  byEvent: Record<string, { messages: number; clean: number }>;
  /** Every rule of the checker, in its order, with the messages it found wrong (error or warning). */
  rules: { rule: string; code: string; severity: string; failing: number; events: string[]; paths: { path: string; messages: number }[] }[];
}

export class ConformanceTally {
  private timer: NodeJS.Timeout | undefined;
  private messages = 0;
  private clean = 0;
  private readonly byEvent = new Map<string, { messages: number; clean: number }>();
  private readonly failing = new Map<string, { count: number; events: Set<string>; paths: Map<string, number> }>();

  constructor(private readonly file?: string) {}

  record(check: nphies.MessageCheck): void {
    const event = check.event ?? "(unreadable)";
    const ok = check.errors.length === 0;
    this.messages += 1;
    if (ok) this.clean += 1;
    const perEvent = this.byEvent.get(event) ?? { messages: 0, clean: 0 };
    perEvent.messages += 1;
    if (ok) perEvent.clean += 1;
    this.byEvent.set(event, perEvent);
    for (const rule of new Set(check.findings.map((f) => f.rule))) {
      const entry = this.failing.get(rule) ?? { count: 0, events: new Set<string>(), paths: new Map<string, number>() };
      entry.count += 1;
      entry.events.add(event);
      // Where, as element paths with the entry and line numbers folded (`entry[*]`): never a value.
      for (const path of new Set(check.findings.filter((f) => f.rule === rule).map((f) => f.expression.replace(/\[\d+\]/g, "[*]")))) {
        entry.paths.set(path, (entry.paths.get(path) ?? 0) + 1);
      }
      this.failing.set(rule, entry);
    }
    this.schedule();
  }

  /** Writes the report to the file now (at close, and a moment after the last message). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.file) return;
    const temp = `${this.file}.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify(this.report(), null, 1)}\n`, { mode: 0o600 });
    fs.renameSync(temp, this.file);
  }

  private schedule(): void {
    if (!this.file || this.timer) return;
    this.timer = setTimeout(() => this.flush(), 250);
    this.timer.unref();
  }

  report(): ConformanceReport {
    return {
      messages: this.messages,
      clean: this.clean,
      byEvent: Object.fromEntries([...this.byEvent].sort(([a], [b]) => a.localeCompare(b))),
      rules: Object.entries(nphies.RULES).map(([rule, def]) => ({
        rule,
        code: def.code,
        severity: def.severity,
        failing: this.failing.get(rule)?.count ?? 0,
        events: [...(this.failing.get(rule)?.events ?? [])].sort(),
        paths: [...(this.failing.get(rule)?.paths ?? [])]
          .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
          .slice(0, 10)
          .map(([path, messages]) => ({ path, messages })),
      })),
    };
  }

  reset(): void {
    this.messages = 0;
    this.clean = 0;
    this.byEvent.clear();
    this.failing.clear();
    this.schedule();
  }
}
