/** The sandbox's notion of "now" (milliseconds since the epoch). Tests inject a controllable one. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; for deterministic tests. */
export class ManualClock implements Clock {
  constructor(private current: number = Date.UTC(2026, 5, 15, 9, 0, 0)) {}

  now(): number {
    return this.current;
  }

  set(ms: number): void {
    this.current = ms;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

export function isoNow(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
