import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as z from "zod";

/**
 * TEST TOOL: the echo MCP server of `mcp-echo-server.mjs` (one tool, `mock_echo`, answering `mcp-echo: <text>`)
 * over streamable HTTP on loopback, for agents that take only HTTP MCP servers from a client (Copilot over ACP).
 * Stateless: each POST gets a fresh server and transport.
 */
export interface McpEchoHttpServer {
  url: string;
  close(): Promise<void>;
}

function echoServer(): McpServer {
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
  return server;
}

export async function startMcpEchoHttpServer(): Promise<McpEchoHttpServer> {
  const http: Server = createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    const server = echoServer();
    const transport = new StreamableHTTPServerTransport({});
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
