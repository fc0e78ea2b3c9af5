import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import { CodexAppServerMapper } from "../../../src/providers/codex/app-server-mapper.js";
import { verifyEvents } from "../../../src/verify/index.js";

/**
 * Hand-written records for subagent cases the mock model cannot make Codex produce (a failed or interrupted child
 * turn, a child seen before any call names it, a child's own thread/started). The usual case is the recorded
 * fixture test (subagent.fixture.test.ts).
 */
const T = "main-thread";
const U = "main-turn";
const C = "child-thread";

type Rec = { dir?: "in" | "out"; msg: unknown };

function run(records: Rec[]): RuntimeEvent[] {
  const mapper = new CodexAppServerMapper({ sessionId: "unit" });
  const events = records.flatMap((r) => mapper.map({ kind: "message", dir: r.dir ?? "in", msg: r.msg }));
  for (const e of events) RuntimeEventSchema.parse(e);
  return events;
}

const n = (method: string, params: unknown): Rec => ({ msg: { method, params } });
const turn = (threadId: string, id: string, status = "inProgress") =>
  n(status === "inProgress" ? "turn/started" : "turn/completed", {
    threadId,
    turn: { id, status, items: [] },
  });
const spawn = (status: string, receivers: string[], id = "spawn") =>
  n(status === "inProgress" ? "item/started" : "item/completed", {
    threadId: T,
    turnId: U,
    item: {
      type: "collabAgentToolCall",
      id,
      tool: id === "spawn" ? "spawnAgent" : "wait",
      status,
      senderThreadId: T,
      receiverThreadIds: receivers,
      prompt: "do the thing",
    },
  });
const status = (threadId: string, type: string) => n("thread/status/changed", { threadId, status: { type } });
const childMessage = (method: "item/started" | "item/completed") =>
  n(method, { threadId: C, turnId: "child-turn", item: { type: "agentMessage", id: "m", text: "" } });

const of = <T extends RuntimeEvent["type"]>(events: RuntimeEvent[], type: T) =>
  events.filter((e): e is Extract<RuntimeEvent, { type: T }> => e.type === type);

describe("codex app-server subagents (hand-written records)", () => {
  it.each([
    ["failed", "failed"],
    ["interrupted", "stopped"],
  ])(
    "a child turn %s ends its task %s and fails the items it left open, in the spawner's turn",
    (native, task) => {
      const events = run([
        turn(T, U),
        spawn("inProgress", []),
        spawn("completed", [C]),
        status(C, "active"),
        turn(C, "child-turn"),
        childMessage("item/started"),
        spawn("inProgress", [C], "wait"),
        turn(C, "child-turn", native),
        spawn("completed", [C], "wait"),
        turn(T, U, "completed"),
      ]);
      expect(verifyEvents(events).map((v) => v.message)).toEqual([]);
      const mainTurn = of(events, "turn.started");
      expect(mainTurn).toHaveLength(1);
      const spawner = of(events, "item.started")[0];
      const message = of(events, "item.completed").find((e) => e.payload.itemType === "assistant_message");
      expect(message?.payload.status).toBe("failed");
      expect(message?.turnId).toBe(mainTurn[0]?.turnId);
      expect(message?.parentItemId).toBe(spawner?.itemId);
      expect(of(events, "task.started").map((e) => e.parentItemId)).toEqual([spawner?.itemId]);
      expect(of(events, "task.completed").map((e) => e.payload.status)).toEqual([task]);
      // the wait call names the same child: the link stays with its spawner
      const wait = of(events, "item.started").find((e) => e.providerRefs?.providerItemId === "wait");
      expect(of(events, "task.progress").every((e) => e.parentItemId !== wait?.itemId)).toBe(true);
      expect(of(events, "session.state.changed").map((e) => e.payload.state)).toEqual(["running", "ready"]);
    },
  );

  it("a subagent's approval request is opened and resolved in its spawner's turn", () => {
    const events = run([
      turn(T, U),
      spawn("inProgress", []),
      spawn("completed", [C]),
      turn(C, "child-turn"),
      {
        msg: {
          id: 7,
          method: "item/commandExecution/requestApproval",
          params: { threadId: C, turnId: "child-turn", itemId: "cmd", command: "ls" },
        },
      },
      { dir: "out", msg: { id: 7, result: { decision: "accept" } } },
      turn(C, "child-turn", "completed"),
      turn(T, U, "completed"),
    ]);
    expect(verifyEvents(events).map((v) => v.message)).toEqual([]);
    const mainTurn = of(events, "turn.started")[0]?.turnId;
    const spawner = of(events, "item.started")[0]?.itemId;
    const opened = of(events, "request.opened");
    const resolved = of(events, "request.resolved");
    expect(opened.map((e) => [e.turnId, e.parentItemId])).toEqual([[mainTurn, spawner]]);
    expect(resolved.map((e) => [e.requestId, e.turnId])).toEqual([[opened[0]?.requestId, mainTurn]]);
  });

  it("a child's turn before any call named it is a warning with its raw, never a turn of the session", () => {
    const events = run([
      turn(T, U),
      turn(C, "child-turn"),
      turn(C, "child-turn", "completed"),
      turn(T, U, "completed"),
    ]);
    expect(verifyEvents(events)).toEqual([]);
    expect(of(events, "turn.started")).toHaveLength(1);
    const warnings = of(events, "runtime.warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.raw?.method).toBe("turn/started");
    expect(of(events, "provider.event").map((e) => e.raw?.method)).toContain("turn/completed");
    expect(of(events, "session.state.changed").map((e) => e.payload.state)).toEqual(["running", "ready"]);
  });

  it("a child's thread/started (it names its parent) opens its thread, not one of the session's own", () => {
    const events = run([
      n("thread/started", { thread: { id: C, parentThreadId: T } }),
      turn(C, "child-turn"),
      turn(C, "child-turn", "completed"),
      turn(T, U),
      turn(T, U, "completed"),
    ]);
    expect(verifyEvents(events)).toEqual([]);
    const threads = of(events, "thread.started").map((e) => e.payload.providerThreadId);
    expect(threads).toEqual([C, T]);
    expect(of(events, "turn.started").map((e) => e.providerRefs?.providerThreadId)).toEqual([T]);
    expect(of(events, "thread.state.changed").every((e) => e.providerRefs?.providerThreadId !== C)).toBe(
      true,
    );
  });

  it("after our thread/start reply, any other thread is a subagent's: its status changes no thread state", () => {
    const events = run([
      { dir: "out", msg: { id: 1, method: "thread/start", params: {} } },
      { msg: { id: 1, result: { thread: { id: T } } } },
      turn(T, U),
      status(C, "idle"),
      turn(T, U, "completed"),
    ]);
    expect(verifyEvents(events)).toEqual([]);
    const childStatus = events.filter((e) => e.raw?.method === "thread/status/changed").map((e) => e.type);
    expect(childStatus).toEqual(["thread.started", "provider.event"]);
    expect(of(events, "thread.state.changed").every((e) => e.providerRefs?.providerThreadId !== C)).toBe(
      true,
    );
  });
});
