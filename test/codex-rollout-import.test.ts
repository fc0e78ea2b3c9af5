import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { main } from "../src/cli/main.js";
import type { RuntimeEvent } from "../src/contracts/events.js";
import { type MockModelServer, startMockModel } from "../src/mock-model/index.js";
import { verifyEvents } from "../src/verify/index.js";
import { codexItems, makeScratch, runCodexExec } from "./mock-model/support/agents.js";
import { memoryIo } from "./support/memory-io.js";

let mock: MockModelServer;
beforeAll(async () => {
  mock = await startMockModel();
});
afterAll(async () => {
  await mock.close();
});

async function findRollouts(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /^rollout-.*\.jsonl$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

it("a rollout written by the real codex exec imports with --from codex-rollout: verify passes, same assistant text", async () => {
  const scratch = await makeScratch();
  try {
    const live = await runCodexExec(mock.baseUrl, "mock:shell run a command", scratch);
    expect(live.exitCode).toBe(0);
    const liveText = codexItems(live, "agent_message")
      .map((item) => String(item.text))
      .join("");
    expect(liveText).toContain("mock final answer: shell");

    const [rollout, ...others] = await findRollouts(join(scratch.root, "codex-home", "sessions"));
    expect(others).toEqual([]);
    const io = memoryIo();
    expect(
      await main(["normalize", "--from", "codex-rollout", "--session-id", "import", rollout as string], io),
    ).toBe(0);
    const events = io
      .out()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as RuntimeEvent);

    expect(verifyEvents(events)).toEqual([]);
    const deltas = events
      .map((e) =>
        e.type === "content.delta" && e.payload.streamKind === "assistant_text" ? e.payload.delta : "",
      )
      .join("");
    expect(deltas).toBe(liveText);
    expect(
      events.some((e) => e.type === "item.completed" && e.payload.itemType === "command_execution"),
    ).toBe(true);
  } finally {
    await scratch.remove();
  }
});
