import type { ProviderKind } from "../contracts/enums.js";
import type { RuntimeEventRaw } from "../contracts/envelope.js";
import type { RuntimeEvent } from "../contracts/events.js";
import { EventBuilder } from "./event-builder.js";
import { LifecycleTracker, type TerminationReason } from "./lifecycle-tracker.js";
import { fixedClock, type MapperOptions, type RuntimeMapper, type SourceName } from "./mapper.js";
import { mapperErrorEvents } from "./safe-map.js";
import { StateSemantics } from "./state-semantics.js";
import type { TranscriptEntry } from "./transcript.js";
import { mapNonMessageEntry } from "./warnings.js";

export type MessageEntry = Extract<TranscriptEntry, { kind: "message" }>;

/**
 * What every mapper shares: the builder, the non-message entries, the never-throw guard, and the lifecycle
 * tracker that lets a driver close everything on a crash or a stop. A provider mapper implements `mapMessage`.
 */
export abstract class BaseMapper implements RuntimeMapper {
  readonly builder: EventBuilder;
  readonly lifecycle: LifecycleTracker;
  readonly states: StateSemantics;
  protected readonly cap: number;

  constructor(
    readonly source: SourceName,
    provider: ProviderKind,
    options: MapperOptions,
  ) {
    this.cap = options.maxOpenEntries ?? 10_000;
    this.builder = new EventBuilder({
      sessionId: options.sessionId,
      provider,
      clock: options.clock ?? fixedClock,
      sequenceAfter: options.sequenceAfter,
    });
    this.lifecycle = new LifecycleTracker(this.cap);
    this.states = new StateSemantics(this.cap);
  }

  get sessionId(): string {
    return this.builder.sessionId;
  }

  map(entry: TranscriptEntry): RuntimeEvent[] {
    const nonMessage = mapNonMessageEntry(this.builder, entry);
    if (nonMessage !== undefined) return this.track(nonMessage);
    const message = entry as MessageEntry;
    this.builder.at(message.t);
    // A plain try/catch: closures per record were a measurable share of the mapping garbage.
    let events: RuntimeEvent[];
    const before = this.builder.sequence;
    try {
      events = this.mapMessage(message);
    } catch (error) {
      this.builder.rewind(before);
      events = mapperErrorEvents(this.builder, this.rawOf(message), error);
    }
    return this.track(events);
  }

  finish(): RuntimeEvent[] {
    return [];
  }

  /** Closes every open turn, request and item and ends the session (see LifecycleTracker.terminate). */
  terminate(reason: TerminationReason, time?: string): RuntimeEvent[] {
    this.builder.at(time);
    return this.states.apply(this.builder, this.lifecycle.terminate(this.builder, reason), true);
  }

  /**
   * For drivers: an event that no native record produced (e.g. a transport error), tracked like the rest. The
   * made event comes first, then the state changes it implies.
   */
  emitOwn(event: (builder: EventBuilder) => RuntimeEvent, time?: string): RuntimeEvent[] {
    this.builder.at(time);
    return this.track([event(this.builder)]);
  }

  /** The raw record of a message, used when its handler fails. */
  protected abstract rawOf(entry: MessageEntry): RuntimeEventRaw;
  protected abstract mapMessage(entry: MessageEntry): RuntimeEvent[];

  protected track(mapped: RuntimeEvent[]): RuntimeEvent[] {
    const events = this.states.apply(this.builder, mapped);
    for (const event of events) this.lifecycle.observe(event);
    return events;
  }
}
