import { describe, expect, it } from "vitest";
import { fixtureLines } from "../../bench/fixture-corpus.js";
import type { RuntimeEvent, RuntimeEventOf } from "../../src/contracts/events.js";
import { BaseMapper } from "../../src/kit/base-mapper.js";
import { EventBuilder } from "../../src/kit/event-builder.js";
import { LifecycleTracker } from "../../src/kit/lifecycle-tracker.js";
import { parseTranscriptLine } from "../../src/kit/transcript.js";
import { MAPPER_DEFINITIONS } from "../../src/mappers/registry.js";

const CHANGE = { changes: [{ path: "a.txt", kind: "add" as const, diff: "+a\n" }] };

describe("item.completed carries the item's last known details (LifecycleTracker)", () => {
  const builder = new EventBuilder({
    sessionId: "s",
    provider: "acp",
    clock: () => "2026-12-01T00:00:00.000Z",
  });
  const ids = { itemId: "i1", turnId: "t1", threadId: "th" };

  function observed(events: RuntimeEvent[]): RuntimeEvent[] {
    const tracker = new LifecycleTracker();
    for (const event of events) tracker.observe(event);
    return events;
  }

  it("a completion without details takes the ones an item.updated gave last", () => {
    const completed = builder.emit("item.completed", { itemType: "file_change", status: "failed" }, ids);
    observed([
      builder.emit("item.started", { itemType: "file_change", status: "inProgress" }, ids),
      builder.emit("item.updated", { itemType: "file_change", details: { changes: [] } }, ids),
      builder.emit("item.updated", { itemType: "file_change", details: CHANGE }, ids),
      completed,
    ]);
    expect(completed.payload.details).toEqual(CHANGE);
    expect(completed.payload.status).toBe("failed");
  });

  it("keeps a completion's own details, and gives none of another item type's", () => {
    const own = { changes: [] };
    const withOwn = builder.emit(
      "item.completed",
      { itemType: "file_change", status: "completed", details: own },
      ids,
    );
    observed([builder.emit("item.started", { itemType: "file_change", details: CHANGE }, ids), withOwn]);
    expect(withOwn.payload.details).toBe(own);
    const retyped = builder.emit("item.completed", { itemType: "dynamic_tool_call", status: "failed" }, ids);
    observed([builder.emit("item.started", { itemType: "file_change", details: CHANGE }, ids), retyped]);
    expect(retyped.payload.details).toBeUndefined();
  });

  it("does not change a payload object another event shares", () => {
    const payload = { itemType: "file_change" as const, status: "failed" as const };
    const completed = builder.emit("item.completed", payload, ids);
    observed([builder.emit("item.started", { itemType: "file_change", details: CHANGE }, ids), completed]);
    expect(completed.payload.details).toEqual(CHANGE);
    expect(payload).not.toHaveProperty("details");
  });

  it("terminate closes an open item with its last known details", () => {
    const tracker = new LifecycleTracker();
    tracker.observe(builder.emit("turn.started", {}, { turnId: "t1", threadId: "th" }));
    tracker.observe(builder.emit("item.started", { itemType: "file_change", details: CHANGE }, ids));
    const closing = tracker.terminate(builder, { kind: "stop", message: "stopped" });
    const item = closing.find((e): e is RuntimeEventOf<"item.completed"> => e.type === "item.completed");
    expect(item?.payload).toMatchObject({ status: "failed", details: CHANGE });
  });
});

/** Every item.completed whose item had details before carries details (the last known, unless it gives its own). */
function completionsWithoutKnownDetails(events: RuntimeEvent[]): string[] {
  const known = new Map<string, unknown>();
  const missing: string[] = [];
  for (const event of events) {
    if (event.itemId === undefined) continue;
    if (
      (event.type === "item.started" || event.type === "item.updated") &&
      event.payload.details !== undefined
    )
      known.set(event.itemId, event.payload.details);
    if (event.type === "item.completed" && known.has(event.itemId) && event.payload.details === undefined)
      missing.push(`${event.payload.itemType} ${event.itemId} (${event.payload.status})`);
  }
  return missing;
}

describe("every mapper: an item completed by a stop mid-stream keeps its details", () => {
  for (const definition of MAPPER_DEFINITIONS) {
    it(`${definition.source}: stopped after each item event with details, the item completes with them`, () => {
      const lines = fixtureLines(definition.source);
      const mapper = definition.create({ sessionId: "cut" });
      if (!(mapper instanceof BaseMapper)) throw new Error(`${definition.source}: not a BaseMapper`);
      // the cut points: every line after which an item with details is open
      const cuts: number[] = [];
      const open = new Set<string>();
      lines.forEach((line, index) => {
        const entry = parseTranscriptLine(line, index + 1);
        if (entry === undefined) return;
        for (const event of mapper.map(entry)) {
          if (event.type === "item.completed" && event.itemId) open.delete(event.itemId);
          if (
            (event.type === "item.started" || event.type === "item.updated") &&
            event.itemId &&
            event.payload.details
          )
            open.add(event.itemId);
        }
        if (open.size > 0 && cuts.length < 40) cuts.push(index + 1);
      });
      expect(cuts.length).toBeGreaterThan(0);
      for (const cut of cuts) {
        const cutMapper = definition.create({ sessionId: "cut" }) as BaseMapper;
        const events: RuntimeEvent[] = [];
        lines.slice(0, cut).forEach((line, index) => {
          const entry = parseTranscriptLine(line, index + 1);
          if (entry !== undefined) events.push(...cutMapper.map(entry));
        });
        events.push(...cutMapper.finish());
        events.push(...cutMapper.terminate({ kind: "stop", message: "stopped by the test" }));
        expect(completionsWithoutKnownDetails(events), `cut after line ${cut}`).toEqual([]);
      }
    });
  }
});
