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

describe("verify: threads", () => {
  const inThread = (type: Parameters<typeof sampleEvent>[0], sequence: number, extra: object = {}) =>
    sampleEvent(type, sequence, { threadId: "thr_1", ...extra } as Partial<RuntimeEvent>);

  it("flags a turn in a thread that has not started, and passes it once the thread started first", () => {
    const early = [
      sampleEvent("session.started", 1, {}),
      inThread("turn.started", 2, { turnId: "turn_1" }),
      inThread("thread.started", 3),
      inThread("turn.completed", 4, { turnId: "turn_1" }),
    ];
    expect(rules(early)).toEqual(["referenced-before-opened"]);
    const ordered = [early[0], early[2], early[1], early[3]] as RuntimeEvent[];
    renumber(ordered);
    expect(rules(ordered)).toEqual([]);
  });
});

function renumber(events: RuntimeEvent[]): void {
  events.forEach((event, index) => {
    event.sequence = index + 1;
    event.eventId = `s:${index + 1}` as RuntimeEvent["eventId"];
  });
}
