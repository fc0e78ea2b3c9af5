import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockModelServer, startMockModel } from "../../src/mock-model/server.js";
import { codexItems, makeScratch, runCodexExec, type Scratch } from "./support/agents.js";

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

describe("real codex exec against the mock model", () => {
  it("mock:text ends with the mock's final answer", async () => {
    const result = await runCodexExec(server.baseUrl, "say hello mock:text", scratch);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(codexItems(result, "agent_message").map((item) => item.text)).toEqual(["mock final answer: text"]);
    expect(result.events.at(-1)).toMatchObject({
      type: "turn.completed",
      usage: { input_tokens: expect.any(Number) },
    });
    const turn = server.requests.filter((record) => record.path === "/v1/responses");
    expect(turn.map((record) => record.scenario)).toEqual(["text"]);
  });

  it("mock:shell runs the command, then ends with the answer that saw its output", async () => {
    const before = server.requests.length;
    const result = await runCodexExec(server.baseUrl, "run a command mock:shell", scratch);
    expect(result.exitCode, result.stderr).toBe(0);
    const [command] = codexItems(result, "command_execution");
    expect(command).toMatchObject({
      status: "completed",
      exit_code: 0,
      command: expect.stringContaining("echo mock-shell-output"),
    });
    expect(String(command?.aggregated_output)).toContain("mock-shell-output");
    expect(codexItems(result, "agent_message").map((item) => item.text)).toEqual([
      "mock final answer: shell (saw mock-shell-output)",
    ]);
    const records = server.requests.slice(before);
    expect(records.map((record) => record.scenario)).toEqual(["shell", "shell"]);
    expect(records[0]?.headers.authorization).toBe("Bearer mock-api-key");
  });
});
