import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHELL_COMMAND } from "../../src/mock-model/scenarios.js";
import { type MockModelServer, startMockModel } from "../../src/mock-model/server.js";
import { makeScratch, runClaudeQuery, type Scratch } from "./support/agents.js";

let server: MockModelServer;
let scratch: Scratch;
beforeAll(async () => {
  server = await startMockModel();
  scratch = await makeScratch();
});
afterAll(async () => {
  await server.close();
  await scratch.remove();
});

describe("real Claude Agent SDK query() against the mock model", () => {
  it("mock:text ends with the mock's final answer", async () => {
    const run = await runClaudeQuery(server.baseUrl, "say hello mock:text", scratch);
    expect(run.result).toBe("mock final answer: text");
    expect(run.messages.some((message) => message.type === "stream_event")).toBe(true);
    expect(
      server.requests.some((record) => record.path.startsWith("/v1/messages") && record.scenario === "text"),
    ).toBe(true);
  });

  it("mock:shell asks permission for Bash, runs it, and ends with the answer that saw its output", async () => {
    const run = await runClaudeQuery(server.baseUrl, "run a command mock:shell", scratch);
    expect(run.permissionRequests).toEqual([
      { toolName: "Bash", input: expect.objectContaining({ command: SHELL_COMMAND }) },
    ]);
    const toolResults = run.messages
      .filter((message) => message.type === "user")
      .flatMap((message) => (message.message as { content: unknown }).content)
      .filter(
        (block): block is Record<string, unknown> => (block as { type?: string }).type === "tool_result",
      );
    expect(toolResults).toEqual([expect.objectContaining({ content: "mock-shell-output", is_error: false })]);
    expect(run.result).toBe("mock final answer: shell (saw mock-shell-output)");
  });
});
