import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import type { ThreadView } from "../../src/projection/thread-view.js";
import { createCodexDriver } from "../../src/providers/codex/driver.js";
import { createCodexSdkDriver } from "../../src/providers/codex-sdk/driver.js";
import { removeScenarioDirs, runScenario } from "./harness.js";

/** What a host shows of a shell turn: the assistant's answer and each command with its output. */
function shown(view: ThreadView) {
  return {
    assistant: view.items.filter((i) => i.itemType === "assistant_message").map((i) => i.text),
    commands: view.items
      .filter((i) => i.itemType === "command_execution")
      .map((i) => ({ command: i.title, output: i.output, status: i.status })),
  };
}

describe("Codex through the app server and through the SDK (exec)", () => {
  let mock: MockModelServer;
  beforeAll(async () => {
    mock = await startMockModel();
  });
  afterAll(async () => {
    await mock.close();
    await removeScenarioDirs();
  });

  it("give projections with the same assistant text and the same command and output", async () => {
    const script = { prompts: ["mock:shell run a command"] };
    const appServer = await runScenario(createCodexDriver, mock.baseUrl, script);
    const sdk = await runScenario(createCodexSdkDriver, mock.baseUrl, script);
    const fromAppServer = shown(appServer.view);
    expect(fromAppServer.commands).toHaveLength(1);
    expect(fromAppServer.commands[0]?.output).toContain("mock-shell-output");
    expect(fromAppServer.assistant.join("")).toContain("mock final answer: shell");
    expect(shown(sdk.view)).toEqual(fromAppServer);
  });
});
