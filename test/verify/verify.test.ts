import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { verifyEvents } from "../../src/verify/index.js";
import { sampleEvent } from "../support/sample-events.js";

type Step = [Parameters<typeof sampleEvent>[0], Partial<RuntimeEvent>];
const ids = { turnId: "turn_1" } as Partial<RuntimeEvent>;
const item = { ...ids, itemId: "item_1" } as Partial<RuntimeEvent>;
const request = { ...ids, requestId: "req_1" } as Partial<RuntimeEvent>;
const state = (value: string) => ({ payload: { state: value } }) as Partial<RuntimeEvent>;

/** A sound stream: a turn with an item, a delta and an approval, then a graceful exit, states as §2 says. */
function soundSteps(): Step[] {
  return [
    ["session.started", {}],
    ["session.state.changed", state("ready")],
    ["turn.started", ids],
    ["session.state.changed", state("running")],
    ["item.started", item],
    ["content.delta", item],
    ["request.opened", request],
    ["session.state.changed", state("waiting")],
    ["request.resolved", request],
    ["session.state.changed", state("running")],
    ["item.completed", item],
    ["turn.completed", ids],
    ["session.state.changed", state("ready")],
    ["session.state.changed", state("stopped")],
    ["session.exited", {}],
  ];
}
const streamOf = (steps: Step[]) => steps.map(([type, extra], index) => sampleEvent(type, index + 1, extra));
const soundStream = () => streamOf(soundSteps());
const without = (drop: (step: Step, index: number) => boolean) =>
  streamOf(soundSteps().filter((s, i) => !drop(s, i)));

const rules = (events: unknown[]) => verifyEvents(events).map((v) => v.rule);

describe("verify", () => {
  it("passes a sound stream", () => {
    expect(verifyEvents(soundStream())).toEqual([]);
  });

  it("fails a turn that ends without the session returning to ready", () => {
    expect(rules(without((_, i) => i === 12 || i === 13))).toEqual(["session-state"]);
    const cut = soundStream().slice(0, 12);
    expect(verifyEvents(cut).map((v) => v.message)).toEqual([
      "session s: turn turn_1 ended but the session did not return to ready by the end of the stream",
    ]);
  });

  it("fails waiting without an open request, and a request open while the session is not waiting", () => {
    expect(rules(without((_, i) => i === 7))).toEqual(["session-state"]);
    const early = soundSteps();
    early.splice(6, 0, ["session.state.changed", state("waiting")]);
    expect(rules(streamOf(early))).toContain("session-state");
    const running = soundSteps();
    running.splice(8, 0, ["session.state.changed", state("running")]);
    expect(rules(streamOf(running))).toEqual(["session-state", "session-state"]);
  });

  it("fails a thread that stays active after its turn", () => {
    const threaded = soundSteps().map(
      ([type, extra]): Step => [type, { ...extra, threadId: "thr_1" } as Partial<RuntimeEvent>],
    );
    threaded.splice(0, 0, ["thread.started", { threadId: "thr_1" } as Partial<RuntimeEvent>]);
    const idle: Step = [
      "thread.state.changed",
      { threadId: "thr_1", payload: { state: "idle" } } as Partial<RuntimeEvent>,
    ];
    const withIdle = [...threaded];
    withIdle.splice(14, 0, idle);
    expect(verifyEvents(streamOf(withIdle))).toEqual([]);
    expect(rules(streamOf(threaded))).toEqual(["thread-state"]);
  });

  it("flags a request resolved twice", () => {
    const events = soundStream();
    events.splice(10, 0, { ...(events[8] as RuntimeEvent) });
    renumber(events);
    expect(rules(events)).toEqual(["request-resolved-twice"]);
  });

  it("flags an item delta after its completion", () => {
    const events = soundStream();
    events.splice(11, 0, { ...(events[5] as RuntimeEvent) });
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
    events.splice(13, 1);
    expect(rules(events)).toEqual(["sequence-gap"]);
  });

  it("flags an invalid event with its sequence", () => {
    const events: unknown[] = soundStream();
    events[4] = { ...(events[4] as object), payload: { itemType: "not-a-type" } };
    const violations = verifyEvents(events);
    expect(violations.map((v) => v.rule)).toContain("invalid-event");
    expect(violations[0]?.sequence).toBe(5);
  });

  it("flags ids used before they were opened", () => {
    const events = without(([type], i) => type === "item.started" || type === "request.opened" || i === 7);
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
      sampleEvent("session.state.changed", 5, state("ready")),
      inThread("thread.state.changed", 6, { payload: { state: "idle" } }),
    ];
    expect(rules(early)).toEqual(["referenced-before-opened"]);
    const ordered = [early[0], early[2], early[1], ...early.slice(3)] as RuntimeEvent[];
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
