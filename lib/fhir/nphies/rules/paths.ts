/**
 * A tiny evaluator for the required-element table (required.ts): which of a resource's required
 * paths are missing, named as FHIRPath-like paths with indexes (`item[1].net.value`).
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function present(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim().length > 0;
  if (Array.isArray(value)) return value.some(present);
  if (isObject(value)) return Object.keys(value).length > 0;
  return true;
}

/** The member(s) a path segment names on one object: `serviced[x]`, `extension(<url>)` or a plain name. */
function step(node: Json, segment: string): { name: string; value: unknown } | undefined {
  const ext = /^extension\((.+)\)$/.exec(segment);
  if (ext) {
    const matches = Array.isArray(node.extension) ? node.extension.filter((e) => isObject(e) && e.url === ext[1]) : [];
    return { name: "extension", value: matches.length ? matches : undefined };
  }
  if (segment.endsWith("[x]")) {
    const prefix = segment.slice(0, -3);
    const key = Object.keys(node).find((k) => k.startsWith(prefix) && /^[A-Z]/.test(k.slice(prefix.length)));
    return { name: key ?? segment, value: key ? node[key] : undefined };
  }
  return { name: segment, value: node[segment] };
}

/** Missing paths of one required path on a resource (empty when satisfied). */
export function missingPaths(resource: Json, path: string): string[] {
  const segments = path.split(/\.(?![^(]*\))/);
  const missing: string[] = [];
  const walk = (node: Json, index: number, at: string): void => {
    const segment = segments[index]!;
    const found = step(node, segment);
    const where = at ? `${at}.${found?.name ?? segment}` : (found?.name ?? segment);
    const value = found?.value;
    if (!present(value)) {
      missing.push(at ? `${at}.${segment}` : segment);
      return;
    }
    if (index === segments.length - 1) return;
    const items = Array.isArray(value) ? value : [value];
    items.forEach((item, i) => {
      const itemPath = Array.isArray(value) ? `${where}[${i}]` : where;
      if (isObject(item)) walk(item, index + 1, itemPath);
      else missing.push(`${itemPath}.${segments[index + 1]}`);
    });
  };
  walk(resource, 0, "");
  return missing;
}
