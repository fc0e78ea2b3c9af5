/**
 * Shapes the recorded files do not hold, hand-written because no older Claude Code (2.0.x, early 2.1.x) can be
 * installed here to record them: sidechain records in the session file itself, `agent_progress` links, titles,
 * compaction, hooks, shell progress, drift, and a file cut while Claude Code is still writing it. Field names and
 * shapes follow the real 2.1.38 file (../shared/fixtures/real) and the bundled Claude Code's record builders.
 */
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { parseTranscriptLine } from "../../../src/kit/transcript.js";
import { claudeCodeDefinition } from "../../../src/providers/claude-code/definition.js";
import { verifyEvents } from "../../../src/verify/index.js";

let clock = 0;
const at = () => `2026-02-10T10:00:${String(clock++).padStart(2, "0")}.000Z`;
const base = (extra: Record<string, unknown>) => ({
  sessionId: "s-1",
  version: "2.0.77",
  cwd: "/w",
  isSidechain: false,
  timestamp: at(),
  ...extra,
});
const prompt = (uuid: string, text: string, extra: Record<string, unknown> = {}) =>
  base({ type: "user", uuid, message: { role: "user", content: text }, ...extra });
const assistant = (uuid: string, content: unknown[], extra: Record<string, unknown> = {}) =>
  base({ type: "assistant", uuid, message: { id: `msg-${uuid}`, role: "assistant", content }, ...extra });
const result = (uuid: string, toolUseId: string, output: string, extra: Record<string, unknown> = {}) =>
  base({
    type: "user",
    uuid,
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content: output }] },
    ...extra,
  });

function run(records: unknown[], tail: string[] = []): RuntimeEvent[] {
  const mapper = claudeCodeDefinition.create({ sessionId: "shapes" });
  const lines = [...records.map((record) => JSON.stringify(record)), ...tail];
  const events = lines.flatMap((line, index) => {
    const entry = parseTranscriptLine(line, index + 1);
    return entry === undefined ? [] : mapper.map(entry);
  });
  events.push(...mapper.finish());
  expect(verifyEvents(events)).toEqual([]);
  return events;
}

const ofType = <T extends RuntimeEvent["type"]>(events: RuntimeEvent[], type: T) =>
  events.filter((event): event is Extract<RuntimeEvent, { type: T }> => event.type === type);

describe("claude-code: record shapes of other versions", () => {
  it("2.0 sidechain records in the session file link to the Task call by the subagent's prompt and its chain", () => {
    const events = run([
      prompt("u1", "delegate it"),
      assistant("a1", [
        {
          type: "tool_use",
          id: "toolu_task",
          name: "Task",
          input: { prompt: "find the bug", subagent_type: "Explore" },
        },
      ]),
      prompt("s1", "find the bug", { isSidechain: true, parentUuid: null }),
      assistant("s2", [{ type: "tool_use", id: "toolu_grep", name: "Grep", input: { pattern: "bug" } }], {
        isSidechain: true,
        parentUuid: "s1",
      }),
      result("s3", "toolu_grep", "a.ts:1", { isSidechain: true, parentUuid: "s2" }),
      assistant("s4", [{ type: "text", text: "found it" }], { isSidechain: true, parentUuid: "s3" }),
      result("u2", "toolu_task", "found it", { toolUseResult: { status: "completed", agentId: "x" } }),
      assistant("a2", [{ type: "text", text: "done" }]),
    ]);
    const task = ofType(events, "item.started").find((e) => e.payload.itemType === "collab_agent_tool_call");
    const linked = events.filter((event) => event.parentItemId !== undefined);
    expect(linked.map((event) => event.parentItemId)).toEqual(linked.map(() => task?.itemId));
    const grep = ofType(events, "item.completed").find((e) => e.payload.itemType === "dynamic_tool_call");
    expect(grep?.parentItemId).toBe(task?.itemId);
    expect(ofType(events, "turn.started")).toHaveLength(1);
  });

  it("an agent_progress record links a subagent whose records name its agentId", () => {
    const events = run([
      prompt("u1", "delegate"),
      assistant("a1", [{ type: "tool_use", id: "toolu_agent", name: "Agent", input: { prompt: "p" } }]),
      base({
        type: "progress",
        uuid: "p1",
        parentToolUseID: "toolu_agent",
        toolUseID: "agent_msg_1",
        data: { type: "agent_progress", agentId: "ag1", prompt: "p" },
      }),
      assistant("s1", [{ type: "text", text: "sub says" }], {
        isSidechain: true,
        agentId: "ag1",
        parentUuid: "x",
      }),
    ]);
    const agent = ofType(events, "item.started").find((e) => e.payload.itemType === "collab_agent_tool_call");
    const text = ofType(events, "item.completed").find((e) => e.payload.itemType === "assistant_message");
    expect(text?.parentItemId).toBe(agent?.itemId);
  });

  it("a background agent outlives its call's result: its records link by the launch result's agentId, or by prompt", () => {
    const launch = (id: string) => ({ status: "async_launched", agentId: id, description: "bg" });
    const events = run([
      prompt("u1", "two in the background"),
      assistant("a1", [
        {
          type: "tool_use",
          id: "toolu_bg1",
          name: "Agent",
          input: { prompt: "one", run_in_background: true },
        },
      ]),
      assistant("a2", [
        {
          type: "tool_use",
          id: "toolu_bg2",
          name: "Agent",
          input: { prompt: "two", run_in_background: true },
        },
      ]),
      result("r1", "toolu_bg1", "launched", { toolUseResult: launch("bg1") }),
      result("r2", "toolu_bg2", "launched", { toolUseResult: { status: "async_launched" } }),
      assistant("s1", [{ type: "text", text: "one done" }], {
        isSidechain: true,
        agentId: "bg1",
        parentUuid: "x",
      }),
      prompt("s2", "two", { isSidechain: true, agentId: "bg2", parentUuid: null }),
      assistant("s3", [{ type: "text", text: "two done" }], {
        isSidechain: true,
        agentId: "bg2",
        parentUuid: "s2",
      }),
    ]);
    const agents = ofType(events, "item.started").filter(
      (e) => e.payload.itemType === "collab_agent_tool_call",
    );
    const texts = ofType(events, "item.completed").filter((e) => e.payload.itemType === "assistant_message");
    expect(texts.map((e) => e.parentItemId)).toEqual(agents.map((e) => e.itemId));
    expect(agents).toHaveLength(2);
  });

  it("titles, compaction, stop hooks, hook and shell progress map to their families", () => {
    const events = run([
      { type: "summary", summary: "Fix the login bug", leafUuid: "u1" },
      prompt("u1", "go"),
      assistant("a1", [{ type: "tool_use", id: "toolu_b", name: "Bash", input: { command: "make" } }]),
      base({
        type: "progress",
        uuid: "p1",
        parentToolUseID: "toolu_b",
        data: { type: "bash_progress", output: "x", elapsedTimeSeconds: 3 },
      }),
      base({
        type: "progress",
        uuid: "p2",
        toolUseID: "toolu_b",
        data: {
          type: "hook_progress",
          hookEvent: "PreToolUse",
          hookName: "PreToolUse:Bash",
          command: "check",
        },
      }),
      result("u2", "toolu_b", "built", {
        toolUseResult: { stdout: "built", stderr: "", interrupted: false },
      }),
      base({ type: "system", subtype: "stop_hook_summary", uuid: "h1", hookCount: 2, hookErrors: ["boom"] }),
      base({
        type: "system",
        subtype: "compact_boundary",
        uuid: "c1",
        compactMetadata: { trigger: "auto", preTokens: 9 },
      }),
      { type: "custom-title", customTitle: "Login fix", sessionId: "s-1" },
    ]);
    expect(ofType(events, "thread.metadata.updated").map((e) => e.payload.name)).toEqual([
      "Fix the login bug",
      "Login fix",
    ]);
    expect(ofType(events, "tool.progress")[0]?.payload).toMatchObject({
      toolUseId: "toolu_b",
      elapsedSeconds: 3,
    });
    // the envelope names the call's item, as for the live Claude and Codex mappers
    const bashStarted = ofType(events, "item.started").find(
      (e) => e.payload.itemType === "command_execution",
    );
    expect(bashStarted?.itemId).toBeDefined();
    expect(ofType(events, "tool.progress")[0]).toMatchObject({
      itemId: bashStarted?.itemId,
      providerRefs: { providerItemId: "toolu_b" },
    });
    expect(ofType(events, "hook.started")[0]?.payload).toMatchObject({ hookEvent: "PreToolUse" });
    expect(ofType(events, "hook.completed")[0]?.payload).toMatchObject({ outcome: "error", stderr: "boom" });
    expect(ofType(events, "thread.state.changed").some((e) => e.payload.state === "compacted")).toBe(true);
    const bash = ofType(events, "item.completed").find((e) => e.payload.itemType === "command_execution");
    expect(bash?.payload.details).toEqual({ command: "make" });
  });

  it("a prompt or a bash-mode command is a turn; a tool result, meta, command output, task notifications open none", () => {
    const events = run([
      prompt("u1", "first"),
      assistant("a1", [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "/w/a" } }]),
      result("u2", "t1", "text"),
      prompt("m1", "<local-command-caveat>Caveat</local-command-caveat>", { isMeta: true }),
      prompt("l1", "<local-command-stdout>ok</local-command-stdout>"),
      prompt("n1", "<task-notification><task-id>b1</task-id><status>completed</status></task-notification>"),
      prompt("n2", "background shell done", { origin: { kind: "task-notification" } }),
      prompt("b1", "<bash-input>git status</bash-input>"),
      prompt("b2", "<bash-stdout>clean</bash-stdout><bash-stderr></bash-stderr>"),
      prompt("u3", "second"),
      assistant("a2", [{ type: "text", text: "answer" }], {}),
    ]);
    expect(ofType(events, "turn.started")).toHaveLength(3);
    const texts = ofType(events, "item.completed")
      .filter((e) => e.payload.itemType === "user_message")
      .map((e) => (e.payload.itemType === "user_message" ? e.payload.details?.text : undefined));
    expect(texts).toEqual(["first", "!git status", "second"]);
  });

  it("a record without a timestamp takes the last record's time; a record type no version has warns once", () => {
    const events = run([
      prompt("u1", "go"),
      { type: "last-prompt", lastPrompt: "go", leafUuid: "u1" },
      { type: "from-the-future", sessionId: "s-1" },
      { type: "from-the-future", sessionId: "s-1" },
      base({ type: "system", subtype: "brand_new", uuid: "n1" }),
    ]);
    const bookkeeping = events.find((e) => e.type === "provider.event" && e.payload.name === "last-prompt");
    const first = events.find((e) => e.type === "turn.started");
    expect(bookkeeping?.createdAt).toBe(first?.createdAt);
    const warnings = ofType(events, "runtime.warning");
    expect(warnings.map((w) => (w.payload.detail as { kind?: string }).kind)).toEqual([
      "from-the-future",
      "system:brand_new",
    ]);
    expect(warnings[0]?.raw?.payload).toEqual({ type: "from-the-future", sessionId: "s-1" });
  });

  it("a last line cut while Claude Code writes it: one malformed-line warning; the turn before it still ends", () => {
    const cut = JSON.stringify(assistant("a2", [{ type: "text", text: "never finished" }])).slice(0, 40);
    const events = run([prompt("u1", "go"), assistant("a1", [{ type: "text", text: "partial" }])], [cut]);
    const warnings = ofType(events, "runtime.warning");
    expect(warnings.map((w) => (w.payload.detail as { reason?: string }).reason)).toEqual(["malformed-line"]);
    // the cut line has no time of its own: it takes the last record's
    const partial = ofType(events, "item.completed").find((e) => e.payload.itemType === "assistant_message");
    expect(warnings[0]?.createdAt).toBe(partial?.createdAt);
    expect(ofType(events, "turn.completed").map((e) => e.payload.state)).toEqual(["completed"]);
  });

  it("the user's interruption ends the turn interrupted; an API error message ends it failed", () => {
    const events = run([
      prompt("u1", "one"),
      prompt("i1", "[Request interrupted by user for tool use]"),
      prompt("u2", "two"),
      assistant("a1", [{ type: "text", text: "API Error: 529 overloaded" }], {
        isApiErrorMessage: true,
        error: "overloaded",
      }),
    ]);
    expect(ofType(events, "turn.completed").map((e) => e.payload.state)).toEqual(["interrupted", "failed"]);
    expect(ofType(events, "turn.completed")[1]?.payload.errorMessage).toBe("API Error: 529 overloaded");
  });
});
