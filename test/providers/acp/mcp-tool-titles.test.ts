import { describe, expect, it } from "vitest";
import { mcpServerNamesOf, mcpToolOfTitle } from "../../../src/providers/acp/mcp-tool-titles.js";
import { mcpServersRefusal } from "../../../src/providers/acp/mcp-transports.js";

describe("MCP tool calls titled <server><separator><tool> (OpenCode, Copilot)", () => {
  it("splits a title on a server the session was given", () => {
    expect(mcpToolOfTitle("echo_mock_echo", ["echo"])).toEqual({ server: "echo", tool: "mock_echo" });
    expect(mcpToolOfTitle("echo-mock_echo", ["echo"])).toEqual({ server: "echo", tool: "mock_echo" });
    // the server's name as the agents sanitize it; the longest server name wins
    expect(mcpToolOfTitle("my_srv_read", ["my.srv"])).toEqual({ server: "my.srv", tool: "read" });
    expect(mcpToolOfTitle("a_b_tool", ["a", "a_b"])).toEqual({ server: "a_b", tool: "tool" });
  });

  it("leaves every other title alone", () => {
    expect(mcpToolOfTitle("read_bash", ["echo"])).toBeUndefined();
    expect(mcpToolOfTitle("echo_mock_echo", [])).toBeUndefined();
    expect(mcpToolOfTitle("echo_", ["echo"])).toBeUndefined();
    expect(mcpToolOfTitle("echo", ["echo"])).toBeUndefined();
    expect(mcpToolOfTitle(undefined, ["echo"])).toBeUndefined();
  });

  it("reads the server names of our session/new params", () => {
    expect(
      mcpServerNamesOf({
        cwd: "/w",
        mcpServers: [{ name: "echo", command: "node", args: [], env: [] }, { name: "" }, 3, { url: "x" }],
      }),
    ).toEqual(["echo"]);
    expect(mcpServerNamesOf({ cwd: "/w" })).toEqual([]);
  });
});

describe("MCP servers an ACP agent would drop", () => {
  const copilot = {
    agentInfo: { name: "Copilot", version: "1.0.102" },
    agentCapabilities: { mcpCapabilities: { http: true, sse: true } },
  };
  const plain = { agentInfo: { name: "other" }, agentCapabilities: {} };
  const stdio = { name: "echo", command: "node" };
  const http = { name: "web", url: "http://127.0.0.1:1/mcp" };

  it("refuses a stdio server for Copilot, which drops it", () => {
    expect(mcpServersRefusal(copilot, [stdio], "Copilot")).toMatch(/drops stdio MCP servers.*"echo"/);
    expect(mcpServersRefusal(copilot, [http], "Copilot")).toBeUndefined();
  });

  it("refuses an HTTP server where mcpCapabilities.http is not offered", () => {
    expect(mcpServersRefusal(plain, [http], "other")).toMatch(/no HTTP MCP servers.*"web"/);
    expect(mcpServersRefusal(plain, [stdio], "other")).toBeUndefined();
    expect(mcpServersRefusal(plain, [], "other")).toBeUndefined();
  });
});
