/**
 * Item details on the recorded scenarios (Claude Agent SDK 0.3.332 / Claude Code 2.1.332 against the mock model),
 * field by field, and the state semantics the kit puts around their turns.
 */
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { fixtureEntries, fixtureNames, replay } from "./test-helpers.js";

type ItemEvent = Extract<RuntimeEvent, { type: "item.started" | "item.updated" | "item.completed" }>;
const isItemEvent = (e: RuntimeEvent): e is ItemEvent =>
  e.type === "item.started" || e.type === "item.updated" || e.type === "item.completed";

/** The item events of the first item of a type, by event type. */
function itemOf(events: RuntimeEvent[], itemType: string) {
  const first = events.find((e) => isItemEvent(e) && e.payload.itemType === itemType);
  const all = events.filter((e): e is ItemEvent => isItemEvent(e) && e.itemId === first?.itemId);
  const byType = (type: ItemEvent["type"]) => all.filter((e) => e.type === type);
  return {
    itemId: first?.itemId,
    started: byType("item.started")[0],
    updated: byType("item.updated"),
    completed: byType("item.completed")[0],
  };
}

const SHELL_COMMAND = "echo mock-shell-output | tee /dev/null";

describe("claude item details on the recorded scenarios", () => {
  it("shell: command_execution with the command as written, no wrapper and no exit code", () => {
    const events = replay(fixtureEntries("shell"));
    const item = itemOf(events, "command_execution");
    // The input streams (input_json_delta) and is complete only at the block's stop: no details before it.
    expect(item.started?.payload.details).toBeUndefined();
    expect(item.updated).toHaveLength(1);
    expect(item.updated[0]?.payload.details).toEqual({ command: SHELL_COMMAND });
    expect(item.updated[0]?.payload.title).toBe(SHELL_COMMAND);
    // Exactly the command: Claude runs it as written (no `shell`), and Claude Code 2.1's Bash result object is
    // {stdout, stderr, interrupted, isImage, noOutputExpected} — no exit code, duration or cwd, so none is given.
    expect(item.completed?.payload).toMatchObject({ status: "completed", title: SHELL_COMMAND });
    expect(item.completed?.payload.details).toEqual({ command: SHELL_COMMAND });
    const output = events.filter(
      (e) =>
        e.type === "content.delta" && e.itemId === item.itemId && e.payload.streamKind === "command_output",
    );
    expect(output.map((e) => (e.type === "content.delta" ? e.payload.delta : ""))).toEqual([
      "mock-shell-output",
    ]);
  });

  it("shell-decline and multi-turn: the same command, on a declined item and in the second turn", () => {
    const declined = itemOf(replay(fixtureEntries("shell-decline")), "command_execution").completed;
    expect(declined?.payload).toMatchObject({ status: "declined", details: { command: SHELL_COMMAND } });
    const second = itemOf(replay(fixtureEntries("multi-turn")), "command_execution").completed;
    expect(second?.payload).toMatchObject({ status: "completed", details: { command: SHELL_COMMAND } });
  });

  it("edit: a Write is an update until its result says create, then an add with the content as its diff", () => {
    const events = replay(fixtureEntries("edit"));
    const item = itemOf(events, "file_change");
    const path = "/tmp/claude-scenario-qnfjIa/mock-edit.txt";
    expect(item.started?.payload.details).toBeUndefined();
    // Before the result nothing says whether the file existed: `update`, and no diff (see file-changes.ts).
    expect(item.updated[0]?.payload.details).toEqual({ changes: [{ path, kind: "update" }] });
    expect(item.completed?.payload.title).toBe(path);
    // The result: {type: "create", structuredPatch: [], originalFile: null, content}.
    expect(item.completed?.payload.details).toEqual({
      changes: [
        {
          path,
          kind: "add",
          diff: `--- /dev/null\n+++ b${path}\n@@ -0,0 +1,1 @@\n+written by the mock model\n`,
        },
      ],
    });
  });

  it("subagent: collab_agent_tool_call with the agent type, description and prompt of the Agent input", () => {
    const item = itemOf(replay(fixtureEntries("subagent")), "collab_agent_tool_call");
    const details = {
      agentType: "general-purpose",
      description: "Mock subagent",
      prompt: "mock subagent task: reply with a short greeting.",
    };
    expect(item.started?.payload.details).toBeUndefined();
    expect(item.updated[0]?.payload.details).toEqual(details);
    expect(item.completed?.payload.details).toEqual(details);
  });

  it("plan: TaskCreate's subject as the plan text; ToolSearch a dynamic call with its tool-reference result", () => {
    const events = replay(fixtureEntries("plan"));
    expect(itemOf(events, "plan").completed?.payload.details).toEqual({ text: "Make the change" });
    const search = itemOf(events, "dynamic_tool_call");
    expect(search.started?.payload.details).toEqual({ tool: "ToolSearch" });
    expect(search.completed?.payload.details).toEqual({
      tool: "ToolSearch",
      arguments: { query: "select:TaskCreate" },
      result: [{ type: "tool_reference", tool_name: "TaskCreate" }],
    });
  });

  it("question: AskUserQuestion a dynamic call whose result is the answer text Claude got", () => {
    const item = itemOf(replay(fixtureEntries("question")), "dynamic_tool_call");
    expect(item.completed?.payload.details).toMatchObject({
      tool: "AskUserQuestion",
      arguments: { questions: [expect.objectContaining({ question: "Which colour should the mock use?" })] },
      result: expect.stringContaining('"Which colour should the mock use?"="Green"'),
    });
    expect(item.completed?.payload.details).not.toHaveProperty("error");
  });

  it("reasoning and text: the snapshot's whole text on completion, none while streaming", () => {
    const events = replay(fixtureEntries("reasoning"));
    const reasoning = itemOf(events, "reasoning");
    expect(reasoning.started?.payload.details).toBeUndefined();
    expect(reasoning.completed?.payload.details).toEqual({ text: "Thinking about the mock request." });
    expect(itemOf(events, "assistant_message").completed?.payload.details).toEqual({
      text: "mock final answer: reasoning",
    });
    const user = itemOf(replay(fixtureEntries("text")), "user_message");
    expect(user.started?.payload.details).toEqual({ text: "mock:text say hello" });
    expect(user.completed?.payload.details).toEqual({ text: "mock:text say hello" });
  });

  it.each(fixtureNames())("%s: every tool item completes with details", (name) => {
    for (const event of replay(fixtureEntries(name)))
      if (
        event.type === "item.completed" &&
        !["assistant_message", "reasoning"].includes(event.payload.itemType)
      )
        expect(event.payload.details, `${event.payload.itemType} ${event.itemId}`).toBeDefined();
  });
});

describe("claude session and thread states on the recorded scenarios", () => {
  it.each(fixtureNames())("%s: ready and idle after each turn, no native state overridden", (name) => {
    const events = replay(fixtureEntries(name));
    events.forEach((event, index) => {
      if (event.type !== "turn.completed") return;
      const after = events
        .slice(index + 1, index + 3)
        .map((e) => [e.type, (e.payload as { state?: string }).state]);
      expect(after).toEqual([
        ["session.state.changed", "ready"],
        ["thread.state.changed", "idle"],
      ]);
    });
    // Claude's `system:status` (requesting → running) agrees with the lifecycle: nothing was demoted.
    const demoted = events.filter((e) => e.type === "provider.event" && e.payload.name === "native-state");
    expect(demoted).toEqual([]);
    const last = events.filter((e) => e.type === "session.state.changed").at(-1);
    expect(last?.payload).toMatchObject({ state: "ready" });
  });
});
