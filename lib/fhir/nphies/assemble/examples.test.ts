import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exampleMessageFiles } from "./example-files";

describe("docs/messages", () => {
  it("holds exactly the messages the portal assembles now (regenerate: npx tsx scripts/generate-example-messages.ts)", () => {
    const dir = path.join(process.cwd(), "docs", "messages");
    const expected = exampleMessageFiles();
    expect(fs.readdirSync(dir).sort()).toEqual([...expected.keys()].sort());
    for (const [name, text] of expected) expect(fs.readFileSync(path.join(dir, name), "utf8"), name).toBe(text);
  });
});
