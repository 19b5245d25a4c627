/**
 * A read a lower module needs of a higher owner's tables, handed down by what sits above it — the
 * owner as it loads, or the composition at boot (docs/decisions/127, 128). Kept on globalThis:
 * Next.js loads instrumentation.ts and the routes as separate bundles of one process, and a
 * module-level variable would exist once per bundle. `provided()` refuses, in the words given,
 * when nothing was handed down — a check never guesses "nothing there".
 */
export interface HandedDown<T> {
  provide(value: T | undefined): void;
  provided(): T;
}

export function handedDown<T>(name: string, whenMissing: string): HandedDown<T> {
  const key = Symbol.for(`clinic-exchange.${name}`);
  const holder = globalThis as { [k: symbol]: unknown };
  return {
    provide: (value) => {
      holder[key] = value;
    },
    provided: () => {
      const value = holder[key] as T | undefined;
      if (value === undefined) throw new Error(whenMissing);
      return value;
    },
  };
}
