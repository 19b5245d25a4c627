import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MCP_REFERENCE_PATH, mcpReference } from "./reference";
import { TOOLS } from "./tools";

describe("docs/mcp-tools.md", () => {
  it("is the reference generated from the tools' schemas (run `npm run mcp:reference` when this fails)", () => {
    const file = fs.readFileSync(path.resolve(__dirname, "../..", MCP_REFERENCE_PATH), "utf8");
    expect(file, "docs/mcp-tools.md is stale: run npm run mcp:reference").toBe(mcpReference());
  });

  it("documents every tool with its input and output schema", () => {
    const reference = mcpReference();
    for (const tool of TOOLS) {
      expect(reference).toContain(`### \`${tool.name}\``);
      expect(reference).toContain(tool.description);
    }
    expect(reference.match(/^Input:$/gm)).toHaveLength(TOOLS.length);
  });
});
