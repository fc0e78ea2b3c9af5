import { describe, expect, it } from "vitest";
import type { RuntimeEventType } from "../../src/contracts/event-types.js";
import { type RuntimeEvent, RuntimeEventSchema } from "../../src/contracts/events.js";
import { BaseMapper, type MessageEntry } from "../../src/kit/base-mapper.js";
import { raw } from "../../src/kit/event-builder.js";
import { verifyEvents } from "../../src/verify/index.js";

interface Emit {
  type: RuntimeEventType;
  payload?: Record<string, unknown>;
  ids?: Record<string, string>;
}

/** A mapper that emits what each record lists: lets a test play a provider that says nothing about states. */
class ScriptMapper extends BaseMapper {
  constructor() {
    super("acp", "acp", { sessionId: "s" });
  }
  protected rawOf(entry: MessageEntry) {
    return raw("acp.notification", entry.msg);
  }
  protected mapMessage(entry: MessageEntry): RuntimeEvent[] {
    return (entry.msg as Emit[]).map(
      (e) =>
        this.builder.emit(e.type, (e.payload ?? {}) as never, {
          ...e.ids,
          raw: this.rawOf(entry),
        }) as RuntimeEvent,
    );
  }
}

const turn = { threadId: "thr", turnId: "t1" };
const request = { ...turn, requestId: "r1" };
const play = (mapper: ScriptMapper, ...records: Emit[][]) =>
  records.flatMap((msg) => mapper.map({ kind: "message", dir: "in", msg }));
const states = (events: ReturnType<typeof play>) =>
  events
    .filter((e) => e.type === "session.state.changed" || e.type === "thread.state.changed")
    .map((e) => `${e.type.split(".")[0]}:${(e.payload as { state: string }).state}`);

describe("state semantics", () => {
  it("synthesizes running, waiting and ready around a turn and an approval where the provider is silent", () => {
    const mapper = new ScriptMapper();
    const events = play(
      mapper,
      [{ type: "thread.started", ids: { threadId: "thr" } }],
      [{ type: "turn.started", ids: turn }],
      [{ type: "request.opened", payload: { requestType: "command_execution_approval" }, ids: request }],
      [{ type: "request.resolved", payload: { requestType: "command_execution_approval" }, ids: request }],
      [{ type: "turn.completed", payload: { state: "completed" }, ids: turn }],
    );
    expect(states(events)).toEqual([
      "session:running",
      "thread:active",
      "session:waiting",
      "session:running",
      "session:ready",
      "thread:idle",
    ]);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    for (const event of events) expect(RuntimeEventSchema.safeParse(event).success).toBe(true);
    const closing = mapper.terminate({ kind: "stop", message: "done" });
    expect(states(closing)).toEqual(["session:stopped"]);
    expect(verifyEvents([...events, ...closing])).toEqual([]);
  });

  it("keeps a contradicting native state as a provider.event, and puts state changes in sequence", () => {
    const mapper = new ScriptMapper();
    const events = play(
      mapper,
      [{ type: "thread.started", ids: { threadId: "thr" } }],
      [
        { type: "session.state.changed", payload: { state: "running" } },
        { type: "turn.started", ids: turn },
        { type: "thread.state.changed", payload: { state: "idle" }, ids: turn },
        { type: "turn.completed", payload: { state: "completed" }, ids: turn },
        { type: "session.state.changed", payload: { state: "running" } },
      ],
    );
    expect(events.map((e) => e.type)).toEqual([
      "thread.started",
      "provider.event",
      "turn.started",
      "session.state.changed",
      "thread.state.changed",
      "provider.event",
      "turn.completed",
      "session.state.changed",
      "thread.state.changed",
      "provider.event",
    ]);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(events[1]?.raw).toBeDefined();
    expect(verifyEvents(events)).toEqual([]);
  });

  it("ends a crashed session in error, not passing through ready", () => {
    const mapper = new ScriptMapper();
    play(mapper, [{ type: "turn.started", ids: turn }]);
    const closing = mapper.terminate({ kind: "crash", message: "exit 1" });
    expect(states(closing)).toEqual(["thread:idle", "session:error"]);
    expect(closing.at(-1)?.type).toBe("session.exited");
  });
});
