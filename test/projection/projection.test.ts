import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { projectEvents } from "../../src/projection/reducer.js";
import { sampleEvent } from "../support/sample-events.js";

function event(type: Parameters<typeof sampleEvent>[0], sequence: number, extra: object): RuntimeEvent {
  return { ...sampleEvent(type, sequence), ...extra } as RuntimeEvent;
}

describe("thread view projection", () => {
  it("accumulates text and output per item, request decisions, plan, usage and states", () => {
    const t = { turnId: "turn_1", threadId: "thr_1" };
    const view = projectEvents([
      event("session.state.changed", 1, { payload: { state: "ready" } }),
      event("thread.started", 2, { threadId: "thr_1", payload: {} }),
      event("turn.started", 3, { ...t, payload: { model: "m1" } }),
      event("item.started", 4, { ...t, itemId: "a", payload: { itemType: "assistant_message" } }),
      event("content.delta", 5, {
        ...t,
        itemId: "a",
        payload: { streamKind: "assistant_text", delta: "Hel" },
      }),
      event("content.delta", 6, {
        ...t,
        itemId: "a",
        payload: { streamKind: "assistant_text", delta: "lo" },
      }),
      event("item.completed", 7, { ...t, itemId: "a", payload: { itemType: "assistant_message" } }),
      event("item.started", 8, {
        ...t,
        itemId: "c",
        payload: { itemType: "command_execution", title: "ls" },
      }),
      event("request.opened", 9, {
        ...t,
        requestId: "r",
        payload: { requestType: "command_execution_approval" },
      }),
      event("request.resolved", 10, {
        ...t,
        requestId: "r",
        payload: { requestType: "command_execution_approval", decision: "accept" },
      }),
      event("content.delta", 11, {
        ...t,
        itemId: "c",
        payload: { streamKind: "command_output", delta: "file\n" },
      }),
      event("item.completed", 12, {
        ...t,
        itemId: "c",
        payload: { itemType: "command_execution", status: "failed" },
      }),
      event("turn.plan.updated", 13, { ...t, payload: { plan: [{ step: "x", status: "completed" }] } }),
      event("thread.token-usage.updated", 14, { ...t, payload: { usage: { total: { totalTokens: 9 } } } }),
      event("turn.completed", 15, { ...t, payload: { state: "completed", usage: { outputTokens: 3 } } }),
      event("session.exited", 16, { payload: { exitKind: "graceful" } }),
    ]);
    expect(view.session.state).toBe("stopped");
    expect(view.threadId).toBe("thr_1");
    expect(view.turns).toHaveLength(1);
    expect(view.turns[0]).toMatchObject({
      state: "completed",
      model: "m1",
      itemIds: ["a", "c"],
      usage: { outputTokens: 3 },
    });
    expect(view.items.find((i) => i.itemId === "a")).toMatchObject({ text: "Hello", status: "completed" });
    expect(view.items.find((i) => i.itemId === "c")).toMatchObject({
      output: "file\n",
      status: "failed",
      title: "ls",
    });
    expect(view.requests).toEqual([
      expect.objectContaining({ requestId: "r", status: "resolved", decision: "accept" }),
    ]);
    expect(view.plan.steps).toEqual([{ step: "x", status: "completed" }]);
    expect(view.tokenUsage?.total.totalTokens).toBe(9);
    expect(view.eventCount).toBe(16);
  });
});
