import type { SessionState, ThreadState } from "../contracts/enums.js";
import type { RuntimeEvent, RuntimeEventOf } from "../contracts/events.js";
import { BoundedMap } from "./bounded-map.js";
import type { EventBuilder } from "./event-builder.js";

/** The states the turn and request lifecycle decides; the others (starting, stopped, error, …) pass through. */
const OWNED_SESSION_STATES: ReadonlySet<SessionState> = new Set(["ready", "running", "waiting"]);
const OWNED_THREAD_STATES: ReadonlySet<ThreadState> = new Set(["active", "idle"]);

/**
 * The state semantics of DESIGN.md §2, the same for every provider: the session is `running` while a turn runs,
 * `waiting` while a request awaits the host, `ready` when neither, and `stopped`/`error` at exit; a thread is
 * `active` while one of its turns runs and `idle` after. Where the native program is silent, the change is
 * emitted right after the event that caused it (with its ids and raw). A native report of a state this lifecycle
 * decides that contradicts it (Codex reporting `running` before its turn started, a thread `idle` before its turn
 * completed) is kept as a `provider.event` rather than let it break the semantics.
 */
export class StateSemantics {
  readonly #openTurns: BoundedMap<string, string>;
  readonly #openRequests: BoundedMap<string, true>;
  readonly #threadTurns: BoundedMap<string, number>;
  readonly #threadStates: BoundedMap<string, ThreadState>;
  #session: SessionState | undefined;
  /** Closing a session (a stop or a crash): no passing ready/running on the way to stopped or error. */
  #closing = false;

  constructor(cap: number) {
    this.#openTurns = new BoundedMap(cap);
    this.#openRequests = new BoundedMap(cap);
    this.#threadTurns = new BoundedMap(cap);
    this.#threadStates = new BoundedMap(cap);
  }

  /**
   * The events with the state changes they imply put in place. Returns `events` itself when nothing is added;
   * otherwise the new array is renumbered so the sequence stays continuous.
   */
  apply(builder: EventBuilder, events: RuntimeEvent[], closing = false): RuntimeEvent[] {
    this.#closing = closing;
    let out: RuntimeEvent[] | undefined;
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as RuntimeEvent;
      const added = this.#observe(builder, event);
      if (added === undefined) {
        out?.push(event);
        continue;
      }
      out ??= events.slice(0, i);
      if (added.before) {
        out.push(...added.events, event);
      } else {
        out.push(event, ...added.events);
      }
    }
    if (out === undefined) return events;
    renumber(out, builder.sessionId);
    return out;
  }

  /** The session's state as the lifecycle has it now (undefined before any state was set). */
  get sessionState(): SessionState | undefined {
    return this.#session;
  }

  #target(): SessionState {
    if (this.#openRequests.size > 0) return "waiting";
    return this.#openTurns.size > 0 ? "running" : "ready";
  }

  #observe(
    builder: EventBuilder,
    event: RuntimeEvent,
  ): { events: RuntimeEvent[]; before: boolean } | undefined {
    switch (event.type) {
      case "turn.started": {
        this.#openTurns.set(event.turnId, event.threadId ?? "");
        const thread = event.threadId;
        if (thread !== undefined) this.#threadTurns.set(thread, (this.#threadTurns.get(thread) ?? 0) + 1);
        return this.#settle(builder, event, thread, "active");
      }
      case "turn.completed":
      case "turn.aborted": {
        const started = this.#openTurns.get(event.turnId);
        if (started === undefined) return undefined;
        this.#openTurns.release(event.turnId);
        const thread = event.threadId ?? (started === "" ? undefined : started);
        if (thread === undefined) return this.#settle(builder, event, undefined, undefined);
        const left = (this.#threadTurns.get(thread) ?? 1) - 1;
        if (left > 0) this.#threadTurns.set(thread, left);
        else this.#threadTurns.release(thread);
        return this.#settle(builder, event, thread, left > 0 ? undefined : "idle");
      }
      case "request.opened":
        this.#openRequests.set(event.requestId, true);
        return this.#settle(builder, event, undefined, undefined);
      case "request.resolved":
        if (!this.#openRequests.has(event.requestId)) return undefined;
        this.#openRequests.release(event.requestId);
        return this.#settle(builder, event, undefined, undefined);
      case "session.state.changed":
        return this.#nativeSessionState(event);
      case "thread.state.changed":
        return this.#nativeThreadState(event);
      case "session.exited": {
        const final: SessionState = event.payload.exitKind === "error" ? "error" : "stopped";
        if (this.#session === "stopped" || this.#session === "error") return undefined;
        this.#session = final;
        const change = builder.emit("session.state.changed", { state: final }, contextOf(event));
        return { events: [change], before: true };
      }
      default:
        return undefined;
    }
  }

  /** After a lifecycle event: the session to its target state, the thread to `threadState`, where not there. */
  #settle(
    builder: EventBuilder,
    cause: RuntimeEvent,
    threadId: string | undefined,
    threadState: ThreadState | undefined,
  ): { events: RuntimeEvent[]; before: boolean } | undefined {
    const events: RuntimeEvent[] = [];
    const target = this.#target();
    const context = contextOf(cause);
    const ended = this.#session === "stopped" || this.#session === "error";
    if (!this.#closing && !ended && this.#session !== target) {
      this.#session = target;
      events.push(builder.emit("session.state.changed", { state: target }, context));
    }
    if (
      threadId !== undefined &&
      threadState !== undefined &&
      this.#threadStates.get(threadId) !== threadState
    ) {
      this.#threadStates.set(threadId, threadState);
      events.push(builder.emit("thread.state.changed", { state: threadState }, { ...context, threadId }));
    }
    return events.length === 0 ? undefined : { events, before: false };
  }

  #nativeSessionState(event: RuntimeEventOf<"session.state.changed">): undefined {
    const state = event.payload.state;
    if (OWNED_SESSION_STATES.has(state) && state !== this.#target()) {
      demote(event, `session state ${state}`);
      return undefined;
    }
    this.#session = state;
    return undefined;
  }

  #nativeThreadState(event: RuntimeEventOf<"thread.state.changed">): undefined {
    const state = event.payload.state;
    const threadId = event.threadId;
    if (threadId === undefined) return undefined;
    if (OWNED_THREAD_STATES.has(state)) {
      const target: ThreadState = (this.#threadTurns.get(threadId) ?? 0) > 0 ? "active" : "idle";
      if (state !== target) {
        demote(event, `thread state ${state}`);
        return undefined;
      }
    }
    this.#threadStates.set(threadId, state);
    return undefined;
  }
}

function contextOf(event: RuntimeEvent) {
  return { threadId: event.threadId, turnId: event.turnId, raw: event.raw };
}

/** A native state report the lifecycle overrides: kept, accounted for, as a provider.event. */
function demote(event: RuntimeEvent, what: string): void {
  const mutable = event as unknown as { type: string; payload: unknown };
  mutable.type = "provider.event";
  mutable.payload = { name: "native-state", summary: `${what}, overridden by the turn/request lifecycle` };
}

function renumber(events: RuntimeEvent[], sessionId: string): void {
  let sequence = Number.POSITIVE_INFINITY;
  for (const event of events) sequence = Math.min(sequence, event.sequence);
  for (const event of events) {
    const mutable = event as { sequence: number; eventId: string };
    mutable.sequence = sequence;
    mutable.eventId = `${sessionId}:${sequence}`;
    sequence++;
  }
}
