import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../contracts/events.js";
import { sampleEvent } from "../test-support/sample-events.js";
import { verifyEvents } from "./index.js";

/** A sound stream: a turn with an item, a delta and an approval, then a graceful exit. */
function soundStream(): RuntimeEvent[] {
  const ids = { turnId: "turn_1" } as Partial<RuntimeEvent>;
  const item = { ...ids, itemId: "item_1" } as Partial<RuntimeEvent>;
  const request = { ...ids, requestId: "req_1" } as Partial<RuntimeEvent>;
  const events: Array<[Parameters<typeof sampleEvent>[0], Partial<RuntimeEvent>]> = [
    ["session.started", {}],
    ["turn.started", ids],
    ["item.started", item],
    ["content.delta", item],
    ["request.opened", request],
    ["request.resolved", request],
    ["item.completed", item],
    ["turn.completed", ids],
    ["session.exited", {}],
  ];
  return events.map(([type, extra], index) => sampleEvent(type, index + 1, extra));
}

const rules = (events: unknown[]) => verifyEvents(events).map((v) => v.rule);

describe("verify", () => {
  it("passes a sound stream", () => {
    expect(verifyEvents(soundStream())).toEqual([]);
  });

  it("flags a request resolved twice", () => {
    const events = soundStream();
    events.splice(6, 0, { ...(events[5] as RuntimeEvent) });
    renumber(events);
    expect(rules(events)).toEqual(["request-resolved-twice"]);
  });

  it("flags an item delta after its completion", () => {
    const events = soundStream();
    events.splice(7, 0, { ...(events[3] as RuntimeEvent) });
    renumber(events);
    expect(rules(events)).toEqual(["delta-after-completion"]);
  });

  it("flags a turn left open at session exit", () => {
    const events = soundStream().filter((e) => e.type !== "turn.completed");
    renumber(events);
    expect(rules(events)).toEqual(["turn-open-at-exit"]);
  });

  it("flags a sequence gap", () => {
    const events = soundStream();
    events.splice(4, 1);
    expect(rules(events.filter((e) => e.type !== "request.resolved"))).toEqual(["sequence-gap"]);
  });

  it("flags an invalid event with its sequence", () => {
    const events: unknown[] = soundStream();
    events[2] = { ...(events[2] as object), payload: { itemType: "not-a-type" } };
    const violations = verifyEvents(events);
    expect(violations.map((v) => v.rule)).toContain("invalid-event");
    expect(violations[0]?.sequence).toBe(3);
  });

  it("flags ids used before they were opened", () => {
    const events = soundStream().filter((e) => e.type !== "item.started" && e.type !== "request.opened");
    renumber(events);
    expect(rules(events)).toEqual([
      "referenced-before-opened",
      "referenced-before-opened",
      "referenced-before-opened",
    ]);
  });
});

function renumber(events: RuntimeEvent[]): void {
  events.forEach((event, index) => {
    event.sequence = index + 1;
    event.eventId = `s:${index + 1}` as RuntimeEvent["eventId"];
  });
}
