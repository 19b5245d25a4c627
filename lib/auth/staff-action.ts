import { z } from "zod";
import { audit, type AuditEntry, type Caller } from "@/lib/audit";
import { log } from "@/lib/log";
import { getDb, type Db } from "@/lib/db";
import { controlCharacterPath, impossibleDatePath, requestContext } from "@/lib/http";
import { actorOf, AccessError, authorize, type StaffUser } from "./guards";
import type { Role } from "./roles";

/**
 * The one way to write a staff server action: `staffAction(roles, schema, fn)` resolves the
 * signed-in user (server-side session), checks the role (a refusal is audited), parses the input
 * again with the form's zod schema, hands `fn` the caller (actor written once, request id, IP), the
 * database and an audit writer, and turns every outcome into one result type — never a thrown
 * error or a 500 for the browser.
 *
 * Order matters: the role is checked before the input is parsed, so a caller outside the roles
 * learns nothing about what input would be valid (the action × role matrix test relies on it).
 */

export type FieldErrors = Partial<Record<string, string[]>>;

/** Why an action did not do its work. Domain codes (not_draft, ERR-001, …) extend the base set. */
export type ActionError = "unauthorized" | "forbidden" | "invalid" | "not_found" | "failed" | (string & {});

export interface ActionFailure {
  ok: false;
  error: ActionError;
  fieldErrors?: FieldErrors;
  /** A message key of the form that the refusal concerns (e.g. "name"). */
  field?: string;
  /** Words for the administrator (e.g. why a JWK was refused); never patient data. */
  detail?: string;
}

/** The uniform result of every staff action. */
export type ActionResult<T extends object = object> = ({ ok: true } & T) | ActionFailure;

/** The signed-in staff member as the one Caller type (lib/audit) names them: user id, name and request id always known. */
export type StaffCaller = Caller & Required<Pick<Caller, "userId" | "userName" | "requestId">>;

export interface StaffActionContext {
  user: StaffUser;
  caller: StaffCaller;
  db: Db;
  /** Writes an audit entry as this user, with this request's id and IP. */
  audit(entry: Omit<AuditEntry, "actor" | "requestId" | "ip">): Promise<void>;
}

export interface StaffActionOptions<I> {
  /** Names the action in logs (no input, no message: they could carry patient data). */
  name: string;
  /** A narrower rule once the input is known (e.g. claims are billing's, authorizations not). */
  rolesFor?: (input: I) => readonly Role[];
  /** Errors of the domain that are the caller's to fix (not a fault): their answer. */
  refusal?: (error: unknown) => ActionFailure | undefined;
  /** Answer for input the schema refuses; default `invalid` with the field errors. */
  invalid?: (error: z.ZodError) => ActionFailure;
  /** Admitted while the user's password must change (only "Change my password", decision 102). */
  passwordChange?: boolean;
}

/** Metadata the action × role matrix test reads: which roles each exported action admits. */
export const STAFF_ACTION = Symbol.for("clinic-exchange.staff-action");
export interface StaffActionInfo {
  roles: readonly Role[];
  name: string;
  /** Bound to a `<form>`: called as `(previousState, formData)`. */
  form: boolean;
}

type Handler<I, T extends object> = (input: I, ctx: StaffActionContext) => Promise<ActionResult<T>>;

function failure(error: unknown, options: StaffActionOptions<never>): ActionFailure {
  if (error instanceof AccessError) return { ok: false, error: error.status === 401 ? "unauthorized" : "forbidden" };
  const refused = options.refusal?.(error);
  if (refused) return refused;
  // Next.js control flow (redirect, notFound) must pass through untouched.
  if (isNextControlFlow(error)) throw error;
  log(options.name).error(`action failed: ${(error as Error)?.name ?? "unknown"}`);
  return { ok: false, error: "failed" };
}

function isNextControlFlow(error: unknown): boolean {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === "string" && (digest.startsWith("NEXT_REDIRECT") || digest.startsWith("NEXT_HTTP_ERROR_FALLBACK") || digest === "NEXT_NOT_FOUND");
}

async function contextFor(user: StaffUser): Promise<StaffActionContext> {
  const request = await requestContext();
  const caller: StaffCaller = { actor: actorOf(user), userId: user.id, userName: user.name, requestId: request.requestId, ...(request.ip ? { ip: request.ip } : {}) };
  const db = await getDb();
  return {
    user,
    caller,
    db,
    audit: (entry) => audit(db, { ...entry, actor: caller.actor, requestId: caller.requestId, ip: caller.ip }),
  };
}

function run<S extends z.ZodType, T extends object>(
  roles: readonly Role[],
  schema: S,
  fn: Handler<z.output<S>, T>,
  options: StaffActionOptions<z.output<S>>,
  raw: unknown,
): Promise<ActionResult<T>> {
  return (async () => {
    try {
      const user = await authorize(roles, { passwordChange: options.passwordChange });
      // One input layer for every action: text with control characters (NUL …) and dates that do
      // not exist are refused, naming the field, before the schema or any database call sees them.
      const badText = controlCharacterPath(raw);
      if (badText !== undefined) return refuseField(badText, "controlCharacters");
      const badDate = impossibleDatePath(raw);
      if (badDate !== undefined) return refuseField(badDate, "impossibleDate");
      const parsed = schema.safeParse(raw);
      if (!parsed.success) return options.invalid ? options.invalid(parsed.error) : { ok: false, error: "invalid", fieldErrors: z.flattenError(parsed.error).fieldErrors as FieldErrors };
      if (options.rolesFor) await authorize(options.rolesFor(parsed.data));
      return await fn(parsed.data, await contextFor(user));
    } catch (error) {
      return failure(error, options as StaffActionOptions<never>);
    }
  })();
}

/** `invalid` on the field a path names (its first segment: the form field), with a message key. */
function refuseField(path: string, message: string): ActionFailure {
  const field = path.split(/[.[]/)[0] || "form";
  return { ok: false, error: "invalid", field, fieldErrors: { [field]: [message] } };
}

function tag<F extends object>(action: F, info: StaffActionInfo): F {
  Object.defineProperty(action, STAFF_ACTION, { value: info });
  return action;
}

/** An action called with one value (an object, an id): `action(input)`. */
export function staffAction<S extends z.ZodType, T extends object>(
  roles: readonly Role[],
  schema: S,
  fn: Handler<z.output<S>, T>,
  options: StaffActionOptions<z.output<S>>,
): (input?: unknown) => Promise<ActionResult<T>> {
  return tag((input?: unknown) => run(roles, schema, fn, options, input), { roles, name: options.name, form: false });
}

/**
 * An action bound to a `<form>` through `useActionState`: `(previousState, formData)`. The form's
 * fields become an object (a field given several times becomes an array) for the schema.
 */
export function staffFormAction<S extends z.ZodType, T extends object>(
  roles: readonly Role[],
  schema: S,
  fn: Handler<z.output<S>, T>,
  options: StaffActionOptions<z.output<S>>,
): (previous: unknown, form: FormData) => Promise<ActionResult<T>> {
  return tag((_previous: unknown, form: FormData) => run(roles, schema, fn, options, formObject(form)), { roles, name: options.name, form: true });
}

export function formObject(form: unknown): Record<string, unknown> {
  if (!(form instanceof FormData)) return {};
  const object: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    if (key.startsWith("$ACTION")) continue; // Next.js's own fields
    const values = form.getAll(key);
    object[key] = values.length === 1 ? values[0] : values;
  }
  return object;
}

/** The roles an exported function admits, if it is a staff action (for the matrix test). */
export function staffActionInfo(value: unknown): StaffActionInfo | undefined {
  return typeof value === "function" ? (value as { [STAFF_ACTION]?: StaffActionInfo })[STAFF_ACTION] : undefined;
}

/** A form field that may come once or several times, as an array. */
export const manyValues = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item));
