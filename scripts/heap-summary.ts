/**
 * What a V8 heap snapshot holds, by kind and by constructor (self sizes):
 *
 *   node --import tsx scripts/heap-summary.ts <file.heapsnapshot> [--top 25]
 *
 * `npm run bench:memory -- --heap-snapshot` writes one of the portal after its walk
 * (docs/decisions/109). Self sizes only: what an object holds itself, not what it keeps alive.
 */
import fs from "node:fs";

const file = process.argv[2];
if (!file) {
  console.error("usage: node --import tsx scripts/heap-summary.ts <file.heapsnapshot> [--top 25]");
  process.exit(2);
}
const topAt = process.argv.indexOf("--top");
const top = topAt > 0 ? Number(process.argv[topAt + 1]) : 25;

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}
const data = JSON.parse(fs.readFileSync(file, "utf8")) as Snapshot;
const fields = data.snapshot.meta.node_fields;
const width = fields.length;
const typeAt = fields.indexOf("type");
const nameAt = fields.indexOf("name");
const sizeAt = fields.indexOf("self_size");
const types = data.snapshot.meta.node_types[0];

const byType = new Map<string, { n: number; bytes: number }>();
const byName = new Map<string, { n: number; bytes: number }>();
let total = 0;
for (let i = 0; i < data.nodes.length; i += width) {
  const type = types[data.nodes[i + typeAt]!]!;
  const bytes = data.nodes[i + sizeAt]!;
  total += bytes;
  const t = byType.get(type) ?? { n: 0, bytes: 0 };
  t.n++;
  t.bytes += bytes;
  byType.set(type, t);
  let name = data.strings[data.nodes[i + nameAt]!] ?? "";
  if (type === "string" || type === "concatenated string" || type === "sliced string") name = `(${type})`;
  else if (type === "code") name = `(code) ${name.startsWith("(") ? name.split(" ")[0] : "compiled"}`;
  else if (type === "closure") name = "(closures)";
  else name = `${type === "object" ? "" : `${type}: `}${name.slice(0, 60)}`;
  const e = byName.get(name) ?? { n: 0, bytes: 0 };
  e.n++;
  e.bytes += bytes;
  byName.set(name, e);
}
const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
console.log(`${file}: ${mb(total)} in ${(data.nodes.length / width).toLocaleString("en")} objects\n\nby kind`);
for (const [t, e] of [...byType].sort((a, b) => b[1].bytes - a[1].bytes)) console.log(`  ${t.padEnd(22)} ${mb(e.bytes).padStart(9)}  ${e.n.toLocaleString("en").padStart(10)}`);
console.log(`\nby constructor or name (top ${top})`);
for (const [n, e] of [...byName].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top)) console.log(`  ${n.padEnd(64)} ${mb(e.bytes).padStart(9)}  ${e.n.toLocaleString("en").padStart(10)}`);
