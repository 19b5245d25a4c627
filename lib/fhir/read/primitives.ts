/**
 * FHIR R4 primitive types as they appear in JSON (https://hl7.org/fhir/R4/datatypes.html):
 * which JSON type each takes and the lexical rule it must follow. Dates must also be real
 * calendar dates ("Dates SHALL be valid dates"): 2026-02-30 is refused.
 */

const YEAR = "([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)";
const MONTH = "(0[1-9]|1[0-2])";
const DAY = "(0[1-9]|[1-2][0-9]|3[0-1])";
const TIME = "([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]+)?";
const ZONE = "(Z|(\\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00))";

const DATE_RE = new RegExp(`^${YEAR}(-${MONTH}(-${DAY})?)?$`);
const DATE_TIME_RE = new RegExp(`^${YEAR}(-${MONTH}(-${DAY}(T${TIME}${ZONE})?)?)?$`);
const INSTANT_RE = new RegExp(`^${YEAR}-${MONTH}-${DAY}T${TIME}${ZONE}$`);
const TIME_RE = new RegExp(`^${TIME}$`);
const CODE_RE = /^[^\s]+( [^\s]+)*$/;
const ID_RE = /^[A-Za-z0-9\-.]{1,64}$/;
const OID_RE = /^urn:oid:[0-2](\.(0|[1-9][0-9]*))+$/;
const UUID_RE = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BASE64_RE = /^[A-Za-z0-9+/=\s]*$/;

/** True when y-m-d (any of them may be absent) names a day that exists. */
function realCalendarDate(value: string): boolean {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(value);
  if (!match?.[3]) return true;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

/** Why `value` is not a valid JSON form of primitive `type`; undefined when it is. */
export function primitiveProblem(type: string, value: unknown): string | undefined {
  switch (type) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "expected true or false";
    case "integer":
      return Number.isInteger(value) && (value as number) >= -2147483648 && (value as number) <= 2147483647 ? undefined : "expected an integer";
    case "positiveInt":
      return Number.isInteger(value) && (value as number) >= 1 ? undefined : "expected a positive integer";
    case "unsignedInt":
      return Number.isInteger(value) && (value as number) >= 0 ? undefined : "expected an integer of 0 or more";
    case "decimal":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "expected a decimal number";
  }
  if (typeof value !== "string") return "expected a string";
  switch (type) {
    case "date":
      return DATE_RE.test(value) && realCalendarDate(value) ? undefined : "expected a date (YYYY, YYYY-MM or YYYY-MM-DD) that exists";
    case "dateTime":
      return DATE_TIME_RE.test(value) && realCalendarDate(value) ? undefined : "expected a date-time (a date, or date and time with a zone) that exists";
    case "instant":
      return INSTANT_RE.test(value) && realCalendarDate(value) ? undefined : "expected an instant (date, time and zone)";
    case "time":
      return TIME_RE.test(value) ? undefined : "expected a time hh:mm:ss";
    case "code":
      return CODE_RE.test(value) ? undefined : "expected a code (no leading, trailing or double spaces)";
    case "id":
      return ID_RE.test(value) ? undefined : "expected an id (1–64 letters, digits, '-' or '.')";
    case "oid":
      return OID_RE.test(value) ? undefined : "expected urn:oid:…";
    case "uuid":
      return UUID_RE.test(value) ? undefined : "expected urn:uuid:…";
    case "base64Binary":
      return BASE64_RE.test(value) ? undefined : "expected base64 data";
    case "string":
    case "markdown":
      return value.length > 0 ? undefined : "expected a non-empty string";
    default:
      // uri, url, canonical, xhtml: any string without being empty.
      return value.length > 0 ? undefined : "expected a non-empty value";
  }
}
