import { describe, expect, it } from "vitest";
import { readMessagesRequest } from "../../src/mock-model/anthropic-request.js";
import { MCP_ECHO_TEXT, MCP_ECHO_TOOL, scriptReply } from "../../src/mock-model/scenarios.js";
import { messagesRequest } from "./support/requests.js";

/** The tools OpenCode 1.18 and Copilot 1.0 offered the mock with the echo server given (real runs' names). */
const tool = (name: string) => ({
  name,
  description: "a tool",
  input_schema: { type: "object", properties: { text: { type: "string" } } },
});
const request = (...names: string[]) =>
  messagesRequest("mock:mcp call the echo tool", { tools: names.map(tool) });

describe("mcp scenario: the echo tool under a server prefix", () => {
  it.each([
    ["OpenCode", `echo_${MCP_ECHO_TOOL}`, ["bash", "edit", "read", "write"]],
    ["Copilot", `echo-${MCP_ECHO_TOOL}`, ["bash", "read_bash", "list_agents", "view"]],
    ["a server name with a dot, as OpenCode sanitizes it", `my_server_${MCP_ECHO_TOOL}`, ["bash"]],
  ])("%s: calls %s with the echo text", (_agent, name, builtins) => {
    const reply = scriptReply(readMessagesRequest(request(...builtins, name)));
    expect(reply).toMatchObject({
      kind: "stream",
      label: "mcp",
      blocks: [{ type: "tool_call", name, input: { text: MCP_ECHO_TEXT } }],
    });
  });

  it("takes no built-in tool for the MCP tool, nor the bare tool name", () => {
    for (const names of [
      ["bash", "read_bash", "list_bash", "todowrite"],
      [MCP_ECHO_TOOL, "bash"],
    ]) {
      const reply = scriptReply(readMessagesRequest(request(...names)));
      expect(reply).toMatchObject({ kind: "stream", label: "mcp", blocks: [{ type: "text" }] });
    }
  });

  it("answers with what the prefixed tool returned", () => {
    const body = request("bash", `echo_${MCP_ECHO_TOOL}`);
    (body.messages as unknown[]).push(
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: `echo_${MCP_ECHO_TOOL}`, input: {} }],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "mcp-echo: hi" }] },
    );
    const reply = scriptReply(readMessagesRequest(body));
    const text =
      reply.kind === "stream" ? reply.blocks.flatMap((b) => (b.type === "text" ? b.deltas : [])) : [];
    expect(text.join("")).toBe("mock final answer: mcp (saw mcp-echo: hi)");
  });
});
