/**
 * Writes docs/mcp-tools.md, the MCP server's reference, from the schemas the server lists
 * (lib/mcp). `npm run mcp:reference`; lib/mcp/reference.test.ts fails when the file is stale.
 */
import fs from "node:fs";
import path from "node:path";
import { MCP_REFERENCE_PATH, mcpReference } from "@/lib/mcp";

const target = path.resolve(__dirname, "..", MCP_REFERENCE_PATH);
fs.writeFileSync(target, mcpReference());
console.log(`wrote ${MCP_REFERENCE_PATH}`);
