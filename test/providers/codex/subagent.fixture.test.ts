import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { isObject, str } from "../../../src/kit/guards.js";
import { parseTranscriptLine } from "../../../src/kit/transcript.js";
import { projectEvents } from "../../../src/projection/index.js";
import { verifyEvents } from "../../../src/verify/index.js";
import { replayCodexAppServer } from "./replay.js";

/** Real traffic: Codex 0.171 spawns a subagent (spawn_agent, then wait_agent) against the mock model. */
const transcript = readFileSync(
  fileURLToPath(new URL("../../fixtures/codex/subagent.jsonl", import.meta.url)),
  "utf8",
);
const events = replayCodexAppServer(transcript, "ses_subagent");

/** The native thread ids of the recording: the session's (from our thread/start reply) and the others. */
function nativeThreads(): { own: string; children: Set<string> } {
  let own = "";
  const children = new Set<string>();
  for (const line of transcript.split("\n")) {
    const entry = parseTranscriptLine(line);
    if (entry?.kind !== "message" || entry.dir !== "in" || !isObject(entry.msg)) continue;
    const result = isObject(entry.msg.result) ? entry.msg.result : undefined;
    const thread = isObject(result?.thread) ? result.thread : undefined;
    if (own === "" && str(thread?.id) !== undefined) own = str(thread?.id) ?? "";
    const params = isObject(entry.msg.params) ? entry.msg.params : {};
    const threadId = str(params.threadId);
    if (threadId !== undefined && threadId !== own) children.add(threadId);
  }
  return { own, children };
}

const ofType = <T extends RuntimeEvent["type"]>(type: T) =>
  events.filter((e): e is Extract<RuntimeEvent, { type: T }> => e.type === type);

describe("codex app-server: a real subagent (spawn_agent, wait_agent)", () => {
  const { own, children } = nativeThreads();

  it("is a recording where a child thread really ran a turn", () => {
    expect(children.size).toBe(1);
    expect(transcript).toContain('"method":"turn/started","params":{"threadId":"');
    const childTurns = transcript
      .split("\n")
      .filter((line) => line.includes('"method":"turn/started"') && !line.includes(own));
    expect(childTurns.length).toBe(1);
  });

  it("passes verify with no warning, and the session ends ready with its thread idle", () => {
    expect(verifyEvents(events).map((v) => v.message)).toEqual([]);
    expect(ofType("runtime.warning")).toEqual([]);
    const states = ofType("session.state.changed").map((e) => e.payload.state);
    expect(states.at(-1)).toBe("ready");
    expect(events.slice(-3).map((e) => e.type)).toEqual([
      "turn.completed",
      "session.state.changed",
      "thread.state.changed",
    ]);
  });

  it("has only the session's own turn: the child's turn and status change no session or thread state", () => {
    const turns = ofType("turn.started");
    expect(turns).toHaveLength(1);
    expect(turns[0]?.providerRefs?.providerThreadId).toBe(own);
    expect(ofType("turn.completed").map((e) => e.turnId)).toEqual([turns[0]?.turnId]);
    for (const e of ofType("thread.state.changed")) expect(e.providerRefs?.providerThreadId ?? own).toBe(own);
    const mainThread = turns[0]?.threadId;
    for (const e of ofType("thread.state.changed")) expect(e.threadId).toBe(mainThread);
    expect(ofType("session.state.changed").map((e) => e.payload.state)).toEqual([
      "ready",
      "running",
      "ready",
    ]);
  });

  it("links the child's items and its subagent task to the spawn call", () => {
    const spawner = ofType("item.started").find((e) => e.payload.itemType === "collab_agent_tool_call");
    expect(spawner).toBeDefined();
    const childItems = ofType("item.started").filter((e) =>
      children.has(e.providerRefs?.providerThreadId ?? ""),
    );
    expect(childItems.map((e) => e.payload.itemType).sort()).toEqual(["assistant_message", "user_message"]);
    for (const e of childItems) {
      expect(e.parentItemId).toBe(spawner?.itemId);
      expect(e.turnId).toBe(spawner?.turnId);
    }
    const task = ofType("task.started");
    expect(task).toHaveLength(1);
    expect(task[0]?.payload).toMatchObject({
      taskType: "subagent",
      description: expect.stringContaining("mock subagent task"),
    });
    expect(task[0]?.parentItemId).toBe(spawner?.itemId);
    const done = ofType("task.completed");
    expect(done.map((e) => [e.payload.taskId, e.payload.status])).toEqual([
      [task[0]?.payload.taskId, "completed"],
    ]);
    expect(done[0]?.parentItemId).toBe(spawner?.itemId);
  });

  it("shows the child's answer under the spawn call in the view of the session's thread", () => {
    const view = projectEvents(events);
    const spawner = view.items.find((item) => item.itemType === "collab_agent_tool_call");
    const answer = view.items.find(
      (item) => item.itemType === "assistant_message" && item.parentItemId === spawner?.itemId,
    );
    expect(answer?.text).toBe("mock subagent answer");
    expect(view.turns.map((t) => t.state)).toEqual(["completed"]);
    // the view is of the session's thread: the child's thread.started and token usage leave it as it is
    expect(view.providerThreadId).toBe(own);
    expect(view.thread.state).toBe("idle");
    const mainUsage = ofType("thread.token-usage.updated").filter((e) => e.threadId === view.threadId);
    expect(view.tokenUsage).toEqual(mainUsage.at(-1)?.payload.usage);
  });
});
