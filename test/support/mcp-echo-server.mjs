// TEST TOOL: a tiny stdio MCP server (the official @modelcontextprotocol/sdk) that tests give the agents. One tool,
// `mock_echo`, answers `mcp-echo: <text>`; the mock model's `mcp` scenario calls it. Plain JavaScript so that an
// agent runs it with this Node, no build step: `node test/support/mcp-echo-server.mjs`.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod";

const server = new McpServer({ name: "mock-echo", version: "1.0.0" });

server.registerTool(
  "mock_echo",
  {
    title: "Mock echo",
    description: "Echoes the text back, prefixed with mcp-echo.",
    inputSchema: { text: z.string().describe("The text to echo.") },
  },
  async ({ text }) => ({ content: [{ type: "text", text: `mcp-echo: ${text}` }] }),
);

await server.connect(new StdioServerTransport());
