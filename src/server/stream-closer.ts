import type { ProviderKind } from "../contracts/enums.js";
import type { RuntimeEvent } from "../contracts/events.js";
import { EventBuilder } from "../kit/event-builder.js";
import { LifecycleTracker } from "../kit/lifecycle-tracker.js";
import { StateSemantics } from "../kit/state-semantics.js";

const CAP = 10_000;

/** Scratch builder for `StateSemantics` while it only observes stored events. */
const observerBuilder = (sessionId: string, provider: ProviderKind) =>
  new EventBuilder({ sessionId, provider, clock: () => new Date(0).toISOString() });

/**
 * Closes a stored stream that a crash left open, as a driver would have on a crash: fed the stored events, it
 * answers the events that end every open item, request and turn and then the session, numbered on from the
 * last stored sequence, with the state changes the state semantics imply.
 *
 * A crash can also cut a driver's batch in two: `request.opened` stored, the `waiting` state change that the
 * state semantics put right after it lost. Those owed state changes — what the semantics add after the last
 * stored event — come first in the closing.
 */
export class StreamCloser {
  #lifecycle = new LifecycleTracker(CAP);
  #states = new StateSemantics(CAP);
  #observer: EventBuilder | undefined;
  #last: RuntimeEvent | undefined;
  /** The state changes owed after the last stored event: each one stored since is taken off. */
  #owed: RuntimeEvent[] = [];

  observe(event: RuntimeEvent): void {
    this.#observer ??= observerBuilder(event.sessionId, event.provider);
    // A resumed agent opens the session again: what the stream says is open starts over from here.
    if (event.type === "session.started") {
      this.#lifecycle = new LifecycleTracker(CAP);
      this.#states = new StateSemantics(CAP);
    }
    this.#lifecycle.observe(event);
    // A copy: apply() may renumber what it is given, and the stored event must stay as it is.
    const copy = { ...event };
    const applied = this.#states.apply(this.#observer, [copy]);
    const added = applied.slice(applied.indexOf(copy) + 1);
    const [next, ...rest] = this.#owed;
    this.#owed = next !== undefined && sameChange(next, event) ? [...rest, ...added] : added;
    this.#last = event;
  }

  /** Whether the stream ends open (events but no `session.exited`). */
  get open(): boolean {
    return this.#last !== undefined && !this.#lifecycle.exited;
  }

  /** The closing events; none when the stream is already closed or empty. */
  close(message: string, now: string): RuntimeEvent[] {
    const last = this.#last;
    if (last === undefined || this.#lifecycle.exited) return [];
    let sequence = last.sequence;
    const owed = this.#owed.map((event) => {
      sequence++;
      return { ...event, sequence, eventId: `${last.sessionId}:${sequence}`, createdAt: now } as RuntimeEvent;
    });
    const builder = new EventBuilder({
      sessionId: last.sessionId,
      provider: last.provider,
      clock: () => now,
      sequenceAfter: sequence,
    });
    const closing = this.#lifecycle.terminate(builder, { kind: "crash", message });
    return [...owed, ...this.#states.apply(builder, closing, true)];
  }
}

/** Whether a stored event is the state change the semantics owed (the same change of the same thing). */
function sameChange(owed: RuntimeEvent, stored: RuntimeEvent): boolean {
  if (owed.type !== stored.type || owed.threadId !== stored.threadId) return false;
  const state = (event: RuntimeEvent) => (event.payload as { state?: unknown }).state;
  return state(owed) === state(stored);
}
