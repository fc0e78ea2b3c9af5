import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import { CodexAppServerMapper } from "../../../src/providers/codex/app-server-mapper.js";
import { CODEX_SERVER_REQUESTS } from "../../../src/providers/codex/app-server-requests.js";
import { verifyEvents } from "../../../src/verify/index.js";

/** Hand-written records for kinds the mock model cannot make the real program emit. */
const T = "thr-native";
const U = "turn-native";

function run(records: Array<{ dir?: "in" | "out"; msg: unknown }>): RuntimeEvent[] {
  const mapper = new CodexAppServerMapper({ sessionId: "unit" });
  const events = records.flatMap((r) => mapper.map({ kind: "message", dir: r.dir ?? "in", msg: r.msg }));
  for (const e of events) RuntimeEventSchema.parse(e);
  return events;
}

const turnStarted = {
  msg: { method: "turn/started", params: { threadId: T, turn: { id: U, items: [], status: "inProgress" } } },
};
const turnCompleted = {
  msg: { method: "turn/completed", params: { threadId: T, turn: { id: U, items: [], status: "completed" } } },
};

describe("codex app-server mapper (hand-written records)", () => {
  it.each(Object.entries(CODEX_SERVER_REQUESTS))(
    "%s opens a typed request; our reply resolves it once",
    (method, spec) => {
      const params = {
        threadId: T,
        turnId: U,
        conversationId: T,
        itemId: "it",
        callId: "it",
        questions: [{ id: "q", header: "h", question: "why?" }],
      };
      const events = run([
        turnStarted,
        { msg: { id: 7, method, params } },
        {
          dir: "out",
          msg: {
            id: 7,
            result: {
              decision: spec.legacy ? "approved" : "accept",
              answers: { q: { answers: ["a"] } },
              action: "accept",
              success: true,
              permissions: { network: {} },
              scope: "session",
              token: "t",
              accessToken: "x",
              chatgptAccountId: "y",
            },
          },
        },
        { msg: { method: "serverRequest/resolved", params: { threadId: T, requestId: 7 } } },
        turnCompleted,
      ]);
      const opened = events.filter((e) => e.type === "request.opened");
      const resolved = events.filter((e) => e.type === "request.resolved");
      expect(opened).toHaveLength(1);
      expect(opened[0]?.payload.requestType).toBe(spec.requestType);
      expect(resolved).toHaveLength(1);
      expect(resolved[0]?.requestId).toBe(opened[0]?.requestId);
      expect(resolved[0]?.payload.requestType).toBe(spec.requestType);
      expect(["accept", "acceptForSession"]).toContain(resolved[0]?.payload.decision);
      expect(events.some((e) => e.type === "user-input.requested")).toBe(spec.isUserInput);
      expect(events.some((e) => e.type === "user-input.resolved")).toBe(spec.isUserInput);
      expect(verifyEvents(events)).toEqual([]);
    },
  );

  it("serverRequest/resolved without our reply resolves the request as cancel", () => {
    const events = run([
      turnStarted,
      {
        msg: {
          id: 3,
          method: "item/commandExecution/requestApproval",
          params: { threadId: T, turnId: U, itemId: "c" },
        },
      },
      { msg: { method: "serverRequest/resolved", params: { threadId: T, requestId: 3 } } },
      { dir: "out", msg: { id: 3, result: { decision: "accept" } } },
    ]);
    expect(events.filter((e) => e.type === "request.resolved").map((e) => e.payload.decision)).toEqual([
      "cancel",
    ]);
  });

  it("a reused native request id opens a new canonical request", () => {
    const ask = {
      msg: {
        id: 0,
        method: "item/fileChange/requestApproval",
        params: { threadId: T, turnId: U, itemId: "f" },
      },
    };
    const reply = { dir: "out" as const, msg: { id: 0, result: { decision: "decline" } } };
    const events = run([turnStarted, ask, reply, ask, reply]);
    const ids = events.filter((e) => e.type === "request.opened").map((e) => e.requestId);
    expect(new Set(ids).size).toBe(2);
    expect(verifyEvents(events)).toEqual([]);
  });

  it("links subagent activity and the subagent thread's items to the collab call", () => {
    const collab = {
      type: "collabAgentToolCall",
      id: "collab-1",
      tool: "spawnAgent",
      status: "inProgress",
      senderThreadId: T,
      receiverThreadIds: ["child"],
      agentsStates: {},
    };
    const events = run([
      turnStarted,
      { msg: { method: "item/started", params: { threadId: T, turnId: U, item: collab } } },
      {
        msg: {
          method: "item/started",
          params: {
            threadId: T,
            turnId: U,
            item: {
              type: "subAgentActivity",
              id: "sa",
              kind: "started",
              agentPath: "a",
              agentThreadId: "child",
            },
          },
        },
      },
      {
        msg: {
          method: "item/started",
          params: {
            threadId: "child",
            turnId: "child-turn",
            item: { type: "agentMessage", id: "m", text: "" },
          },
        },
      },
      {
        msg: {
          method: "item/agentMessage/delta",
          params: { threadId: "child", turnId: "child-turn", itemId: "m", delta: "hi" },
        },
      },
    ]);
    const collabId = events.find(
      (e) => e.type === "item.started" && e.payload.itemType === "collab_agent_tool_call",
    )?.itemId;
    const activity = events.filter((e) => e.type === "item.started")[1];
    expect(activity?.payload).toMatchObject({ itemType: "collab_agent_tool_call" });
    expect(activity?.parentItemId).toBe(collabId);
    const child = events.filter(
      (e) => e.providerRefs?.providerThreadId === "child" && e.itemId !== undefined,
    );
    expect(child.length).toBe(2);
    for (const e of child) expect(e.parentItemId).toBe(collabId);
  });

  it("keeps token usage totals and the last call in the canonical vocabulary", () => {
    const usage = {
      totalTokens: 10,
      inputTokens: 7,
      cachedInputTokens: 1,
      cacheWriteInputTokens: 2,
      outputTokens: 3,
      reasoningOutputTokens: 0,
    };
    const events = run([
      turnStarted,
      {
        msg: {
          method: "thread/tokenUsage/updated",
          params: {
            threadId: T,
            turnId: U,
            tokenUsage: { total: usage, last: usage, modelContextWindow: 100 },
          },
        },
      },
      turnCompleted,
    ]);
    const updated = events.find((e) => e.type === "thread.token-usage.updated");
    expect(updated?.payload.usage).toEqual({
      total: {
        inputTokens: 7,
        cachedInputTokens: 1,
        cacheWriteTokens: 2,
        outputTokens: 3,
        reasoningOutputTokens: 0,
        totalTokens: 10,
      },
      last: {
        inputTokens: 7,
        cachedInputTokens: 1,
        cacheWriteTokens: 2,
        outputTokens: 3,
        reasoningOutputTokens: 0,
        totalTokens: 10,
      },
      modelContextWindow: 100,
    });
    expect(events.find((e) => e.type === "turn.completed")?.payload).toMatchObject({
      usage: { totalTokens: 10 },
    });
  });

  it("warns about unknown methods and late deltas instead of emitting them", () => {
    const events = run([
      turnStarted,
      {
        msg: {
          method: "item/completed",
          params: { threadId: T, turnId: U, item: { type: "agentMessage", id: "m", text: "x" } },
        },
      },
      {
        msg: {
          method: "item/agentMessage/delta",
          params: { threadId: T, turnId: U, itemId: "m", delta: "late" },
        },
      },
      { msg: { method: "brand/new/method", params: {} } },
      { msg: [1, 2, 3] },
    ]);
    expect(events.filter((e) => e.type === "content.delta")).toEqual([]);
    expect(events.filter((e) => e.type === "runtime.warning")).toHaveLength(3);
    expect(verifyEvents(events)).toEqual([]);
  });

  it("maps our requests' replies: thread/start state, errors as runtime.error", () => {
    const events = run([
      { dir: "out", msg: { id: 1, method: "thread/start", params: {} } },
      { msg: { id: 1, result: { thread: { id: T }, model: "gpt-x", approvalPolicy: "untrusted" } } },
      { dir: "out", msg: { id: 2, method: "turn/start", params: { threadId: T } } },
      { msg: { id: 2, error: { code: -32602, message: "bad params" } } },
      { msg: { id: 99, result: {} } },
      turnStarted,
    ]);
    expect(events.map((e) => e.type).slice(0, 4)).toEqual([
      "session.started",
      "thread.started",
      "session.configured",
      "session.state.changed",
    ]);
    expect(events.find((e) => e.type === "runtime.error")?.payload).toMatchObject({
      class: "validation_error",
    });
    expect(events.find((e) => e.type === "turn.started")?.payload).toMatchObject({ model: "gpt-x" });
    expect(events.filter((e) => e.type === "runtime.warning")).toHaveLength(1);
  });

  it("turns standalone process output (base64) into text on a provider.event (no item to carry a delta)", () => {
    const events = run([
      {
        msg: {
          method: "process/outputDelta",
          params: {
            processHandle: "p",
            stream: "stdout",
            deltaBase64: btoa("héllo".replace("é", "e")),
            capReached: false,
          },
        },
      },
    ]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: "provider.event",
      payload: { name: "process/outputDelta", summary: "hello" },
    });
  });
});
