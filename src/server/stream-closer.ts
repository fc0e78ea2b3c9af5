import type { ProviderKind } from "../contracts/enums.js";
import type { RuntimeEvent } from "../contracts/events.js";
import { EventBuilder } from "../kit/event-builder.js";
import { LifecycleTracker } from "../kit/lifecycle-tracker.js";
import { StateSemantics } from "../kit/state-semantics.js";

/** Scratch builder for `StateSemantics` while it only observes stored events (what it would add is dropped). */
const observerBuilder = (sessionId: string, provider: ProviderKind) =>
  new EventBuilder({ sessionId, provider, clock: () => new Date(0).toISOString() });

/**
 * Closes a stored stream that a crash left open, as a driver would have on a crash: fed the stored events, it
 * answers the events that end every open item, request and turn and then the session, numbered on from the
 * last stored sequence, with the state changes the state semantics imply.
 */
export class StreamCloser {
  #lifecycle = new LifecycleTracker();
  #states = new StateSemantics(10_000);
  #observer: EventBuilder | undefined;
  #last: RuntimeEvent | undefined;

  observe(event: RuntimeEvent): void {
    this.#observer ??= observerBuilder(event.sessionId, event.provider);
    // A resumed agent opens the session again: what the stream says is open starts over from here.
    if (event.type === "session.started") {
      this.#lifecycle = new LifecycleTracker();
      this.#states = new StateSemantics(10_000);
    }
    this.#lifecycle.observe(event);
    // A copy: apply() may renumber what it is given, and the stored event must stay as it is.
    this.#states.apply(this.#observer, [{ ...event }]);
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
    const builder = new EventBuilder({
      sessionId: last.sessionId,
      provider: last.provider,
      clock: () => now,
      sequenceAfter: last.sequence,
    });
    const closing = this.#lifecycle.terminate(builder, { kind: "crash", message });
    return this.#states.apply(builder, closing, true);
  }
}
