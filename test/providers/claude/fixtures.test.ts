import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import { verifyEvents } from "../../../src/verify/index.js";
import {
  assistantItemTexts,
  FIXTURE_DIR,
  fixtureEntries,
  fixtureNames,
  nativeToolUseIds,
  replay,
  snapshotTexts,
  toJsonl,
} from "./test-helpers.js";

const TOOL_ITEM_TYPES = new Set([
  "command_execution",
  "file_change",
  "mcp_tool_call",
  "dynamic_tool_call",
  "collab_agent_tool_call",
  "web_search",
  "plan",
]);
const names = fixtureNames();

describe("claude fixtures", () => {
  it("has every recorded scenario", () => {
    for (const name of [
      "text",
      "reasoning",
      "shell",
      "shell-decline",
      "edit",
      "plan",
      "question",
      "subagent",
      "long",
      "error-500",
      "multi-turn",
    ])
      expect(names).toContain(name);
  });

  describe.each(names)("%s", (name) => {
    const entries = fixtureEntries(name);
    const events = replay(entries);

    it("matches the golden output, and a second replay is byte-identical", () => {
      const actual = toJsonl(events);
      expect(toJsonl(replay(fixtureEntries(name)))).toBe(actual);
      const golden = join(FIXTURE_DIR, `${name}.expected.jsonl`);
      if (process.env.UPDATE_GOLDEN === "1" || !existsSync(golden)) writeFileSync(golden, actual);
      expect(actual).toBe(readFileSync(golden, "utf8"));
    });

    it("is schema-valid, numbered 1..n, with raw on every event, and passes verify", () => {
      events.forEach((event, index) => {
        RuntimeEventSchema.parse(event);
        expect(event.sequence).toBe(index + 1);
        expect(event.raw).toBeDefined();
      });
      expect(verifyEvents(events)).toEqual([]);
    });

    it("shows each assistant text block exactly once: deltas per item == the snapshot texts", () => {
      const byItem = assistantItemTexts(events);
      expect([...byItem.values()]).toEqual(snapshotTexts(entries));
      for (const event of events)
        if (event.type === "item.completed" && event.payload.itemType === "assistant_message" && event.itemId)
          expect((event.payload.data as { text: string }).text).toBe(byItem.get(event.itemId));
    });

    it("starts one item per native tool call, never with a native id as canonical id", () => {
      const native = nativeToolUseIds(entries);
      const started = events.filter(
        (e) => e.type === "item.started" && TOOL_ITEM_TYPES.has(e.payload.itemType),
      );
      expect(new Set(started.map((e) => e.providerRefs?.providerItemId))).toEqual(native);
      expect(started).toHaveLength(native.size);
      for (const event of events)
        for (const id of native) expect([event.itemId, event.requestId, event.turnId]).not.toContain(id);
    });

    it("resolves every request once and completes every turn once", () => {
      const opened = events.filter((e) => e.type === "request.opened").map((e) => e.requestId);
      const resolved = events.filter((e) => e.type === "request.resolved").map((e) => e.requestId);
      expect(resolved.sort()).toEqual(opened.sort());
      const started = events.filter((e) => e.type === "turn.started").map((e) => e.turnId);
      const completed = events.filter((e) => e.type === "turn.completed").map((e) => e.turnId);
      expect(completed).toEqual(started);
      const results = entries.filter(
        (e) => e.kind === "message" && (e.msg as { type?: string }).type === "result",
      );
      expect(completed).toHaveLength(results.length);
    });
  });
});

type EventOf<T extends RuntimeEvent["type"]> = Extract<RuntimeEvent, { type: T }>;
const of = <T extends RuntimeEvent["type"]>(events: RuntimeEvent[], type: T): EventOf<T>[] =>
  events.filter((e): e is EventOf<T> => e.type === type);
const completedItem = (events: RuntimeEvent[], itemType: string) =>
  of(events, "item.completed").find((e) => e.payload.itemType === itemType);

describe("claude scenario semantics", () => {
  it("shell: approval accepted, command_execution completed with its output", () => {
    const events = replay(fixtureEntries("shell"));
    const resolved = of(events, "request.resolved")[0];
    expect(of(events, "request.opened")[0]?.payload).toMatchObject({
      requestType: "command_execution_approval",
    });
    expect(resolved?.payload).toMatchObject({ decision: "accept" });
    const done = events.find(
      (e) => e.type === "item.completed" && e.payload.itemType === "command_execution",
    );
    expect(done?.payload).toMatchObject({ status: "completed", data: { output: "mock-shell-output" } });
    expect(done?.sequence).toBeGreaterThan(resolved?.sequence ?? Infinity);
  });

  it("shell-decline: the command item completes as declined", () => {
    const events = replay(fixtureEntries("shell-decline"));
    expect(of(events, "request.resolved")[0]?.payload).toMatchObject({ decision: "decline" });
    expect(completedItem(events, "command_execution")?.payload.status).toBe("declined");
  });

  it("edit: a file_change item behind a file_change_approval", () => {
    const events = replay(fixtureEntries("edit"));
    expect(of(events, "request.opened")[0]?.payload.requestType).toBe("file_change_approval");
    const done = completedItem(events, "file_change");
    expect(done?.payload.status).toBe("completed");
  });

  it("question: user-input.requested with structured questions, resolved with the answers given to Claude", () => {
    const events = replay(fixtureEntries("question"));
    const requested = of(events, "user-input.requested")[0];
    expect(requested?.payload.questions).toEqual([
      expect.objectContaining({
        id: "Which colour should the mock use?",
        options: expect.arrayContaining([expect.objectContaining({ label: "Green" })]),
      }),
    ]);
    const resolved = of(events, "user-input.resolved")[0];
    expect(resolved?.payload.answers).toEqual({ "Which colour should the mock use?": "Green" });
    expect(resolved?.requestId).toBe(requested?.requestId);
  });

  it("subagent: the subagent's items and task events point at the Agent item", () => {
    const events = replay(fixtureEntries("subagent"));
    const agent = events.find(
      (e) => e.type === "item.started" && e.payload.itemType === "collab_agent_tool_call",
    );
    expect(agent?.itemId).toBeDefined();
    const children = events.filter((e) => e.type === "item.started" && e.parentItemId !== undefined);
    expect(children.length).toBeGreaterThan(0);
    for (const child of children) expect(child.parentItemId).toBe(agent?.itemId);
    expect(of(events, "task.started")[0]?.parentItemId).toBe(agent?.itemId);
    expect(of(events, "task.completed")[0]?.payload.status).toBe("completed");
  });

  it("plan: a plan item and turn.plan.updated", () => {
    const events = replay(fixtureEntries("plan"));
    expect(events.some((e) => e.type === "item.completed" && e.payload.itemType === "plan")).toBe(true);
    expect(of(events, "turn.plan.updated")[0]?.payload.plan.length).toBeGreaterThan(0);
  });

  it("reasoning: reasoning_text deltas add up to the thinking snapshot", () => {
    const events = replay(fixtureEntries("reasoning"));
    const text = of(events, "content.delta")
      .filter((e) => e.type === "content.delta" && e.payload.streamKind === "reasoning_text")
      .map((e) => (e.type === "content.delta" ? e.payload.delta : ""))
      .join("");
    expect(text).toBe("Thinking about the mock request.");
  });

  it("long: thousands of deltas, one item", () => {
    const events = replay(fixtureEntries("long"));
    expect([...assistantItemTexts(events).values()]).toHaveLength(1);
    expect(of(events, "content.delta").length).toBeGreaterThanOrEqual(3000);
  });

  it("error-500: retry warning, runtime.error and a failed turn with the error", () => {
    const events = replay(fixtureEntries("error-500"));
    expect(
      of(events, "runtime.warning").some(
        (e) => e.type === "runtime.warning" && e.payload.message.includes("retry"),
      ),
    ).toBe(true);
    expect(of(events, "runtime.error").length).toBeGreaterThan(0);
    expect(of(events, "turn.completed")[0]?.payload).toMatchObject({ state: "failed" });
  });

  it("multi-turn: two turns in one thread, usage and cost on each", () => {
    const events = replay(fixtureEntries("multi-turn"));
    const turns = of(events, "turn.completed");
    expect(turns).toHaveLength(2);
    for (const turn of turns) {
      expect(turn.payload).toMatchObject({ state: "completed", stopReason: "end_turn" });
      if (turn.type === "turn.completed") {
        expect(turn.payload.usage?.inputTokens).toBeGreaterThan(0);
        expect(turn.payload.totalCostUsd).toBeGreaterThan(0);
      }
    }
    expect(new Set(turns.map((t) => t.threadId)).size).toBe(1);
  });
});
