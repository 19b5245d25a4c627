/**
 * Writes docs/messages/: one request message per event and care setting as the portal assembles
 * it (lib/fhir/nphies/assemble/demo.ts, fictional demo facts), plus an index. Run after changing
 * the assembly; lib/fhir/nphies/assemble/examples.test.ts fails while the files are stale.
 *   npx tsx scripts/generate-example-messages.ts
 */
import fs from "node:fs";
import path from "node:path";
import { nphies } from "@/lib/fhir";

const dir = path.join(process.cwd(), "docs", "messages");
fs.mkdirSync(dir, { recursive: true });
const files = nphies.exampleMessageFiles();
for (const old of fs.readdirSync(dir)) if (!files.has(old)) fs.rmSync(path.join(dir, old));
for (const [name, text] of files) fs.writeFileSync(path.join(dir, name), text);
console.log(`wrote ${files.size} files to docs/messages/`);
