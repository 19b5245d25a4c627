import type { FieldValues, Resolver } from "react-hook-form";

/**
 * A react-hook-form resolver for a form's zod schema that is loaded the first time it is needed.
 *
 * The schema is still the one the server action parses again (one schema per input), but zod and
 * the schema are not part of the page's first-load JavaScript: they arrive as their own chunk when
 * the user first works in the form (`preload`, wired to focus) or, at the latest, when the form is
 * first validated. Until then nothing has been typed that needs checking
 * (docs/decisions/055-first-load-javascript.md).
 */
export interface LazyResolver<TValues extends FieldValues> extends Resolver<TValues> {
  /** Starts loading the schema and zod; call it when the user starts working in the form. */
  preload(): void;
}

/** What a browser entry's `load…Schema()` returns: a zod schema, typed loosely here on purpose. */
type SchemaLoader = () => Promise<unknown>;

export function lazyZodResolver<TValues extends FieldValues>(load: SchemaLoader): LazyResolver<TValues> {
  let ready: Promise<Resolver<TValues>> | undefined;
  const resolve = (): Promise<Resolver<TValues>> => {
    ready ??= Promise.all([load(), import("@hookform/resolvers/zod")]).then(
      ([schema, { zodResolver }]) => zodResolver(schema as Parameters<typeof zodResolver>[0]) as unknown as Resolver<TValues>,
      (error: unknown) => {
        // A failed chunk load (network blip) is tried again on the next validation.
        ready = undefined;
        throw error;
      },
    );
    return ready;
  };
  const resolver: Resolver<TValues> = async (values, context, options) => (await resolve())(values, context, options);
  return Object.assign(resolver, {
    preload: () => {
      resolve().catch(() => undefined);
    },
  });
}

/** Props for a `<form>` (or fieldset) that start loading its resolver as soon as focus enters it. */
export function preloadOnFocus(resolver: { preload(): void }): { onFocusCapture: () => void } {
  return { onFocusCapture: () => resolver.preload() };
}
