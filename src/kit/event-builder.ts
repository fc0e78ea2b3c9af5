import type { ProviderKind, RawSource } from "../contracts/enums.js";
import type { ProviderRefs, RuntimeEventRaw } from "../contracts/envelope.js";
import type { RuntimeEventType } from "../contracts/event-types.js";
import type { RuntimeEvent, RuntimeEventOf } from "../contracts/events.js";
import type { RuntimeEventPayloadByType } from "../contracts/payloads.js";

/** Payloads as mappers write them: branded ids (task ids, provider thread ids) may be given as plain strings. */
export type PayloadInput<T> = T extends string
  ? string extends T
    ? T
    : T extends `${infer _}`
      ? T
      : string
  : T extends readonly unknown[]
    ? T
    : T extends object
      ? { [K in keyof T]: PayloadInput<T[K]> }
      : T;

/** The canonical ids and native refs an event is about; all optional, only set fields are written. */
export interface EventContext {
  threadId?: string | undefined;
  turnId?: string | undefined;
  itemId?: string | undefined;
  requestId?: string | undefined;
  parentItemId?: string | undefined;
  providerRefs?: { [K in keyof ProviderRefs]?: string | undefined } | undefined;
  raw?: RuntimeEventRaw | undefined;
}

export interface EventBuilderOptions {
  sessionId: string;
  provider: ProviderKind;
  /** Injected clock: mappers have none of their own. Used when the record carries no timestamp. */
  clock: () => string;
  /** The sequence to go on from (a resumed session's last); default 0, so the first event is 1. */
  sequenceAfter?: number | undefined;
}

/** Mints envelopes: event id, per-session sequence, time, ids and raw. Builds exactly the schema's shape. */
export class EventBuilder {
  readonly sessionId: string;
  readonly provider: ProviderKind;
  readonly #clock: () => string;
  #sequence = 0;
  #time: string | undefined;
  /** The last refs object found compact (returned as is): nothing mutates a refs object handed to the builder. */
  #lastCompactRefs: object | undefined;

  constructor(options: EventBuilderOptions) {
    this.sessionId = options.sessionId;
    this.provider = options.provider;
    this.#clock = options.clock;
    this.#sequence = options.sequenceAfter ?? 0;
  }

  get sequence(): number {
    return this.#sequence;
  }

  /**
   * Takes back the events minted after `sequence`: a handler that threw had minted them, and they are dropped
   * with its partial output, so the sequence must not skip them.
   */
  rewind(sequence: number): void {
    if (sequence >= 0 && sequence < this.#sequence) this.#sequence = sequence;
  }

  /** Sets the time of the record being mapped (a transcript timestamp); undefined falls back to the clock. */
  at(time: string | undefined): void {
    this.#time = time;
  }

  /**
   * `raw`, when given, is the event's raw record (else `context.raw`): a mapper can then pass a context it keeps
   * (per thread, turn or item) as it is, instead of copying it to add the record being mapped.
   */
  emit<T extends RuntimeEventType>(
    type: T,
    payload: PayloadInput<RuntimeEventPayloadByType[T]>,
    context: EventContext = {},
    raw: RuntimeEventRaw | undefined = context.raw,
  ): RuntimeEventOf<T> {
    const sequence = ++this.#sequence;
    const event: Record<string, unknown> = {
      eventId: `${this.sessionId}:${sequence}`,
      sequence,
      provider: this.provider,
      sessionId: this.sessionId,
      createdAt: this.#time ?? this.#clock(),
    };
    if (context.threadId !== undefined) event.threadId = context.threadId;
    if (context.turnId !== undefined) event.turnId = context.turnId;
    if (context.itemId !== undefined) event.itemId = context.itemId;
    if (context.requestId !== undefined) event.requestId = context.requestId;
    if (context.parentItemId !== undefined) event.parentItemId = context.parentItemId;
    const given = context.providerRefs;
    // Consecutive events mostly share one refs object (cached per item by the mappers): check it once.
    const refs = given !== undefined && given === this.#lastCompactRefs ? given : compactRefs(given);
    if (refs !== undefined) {
      if (refs === given) this.#lastCompactRefs = given;
      event.providerRefs = refs;
    }
    event.type = type;
    event.payload = compact(payload as Record<string, unknown>);
    if (raw !== undefined) event.raw = raw;
    return event as unknown as RuntimeEventOf<T>;
  }
}

export function raw(
  source: RawSource,
  payload: unknown,
  method?: string,
  messageType?: string,
): RuntimeEventRaw {
  const value: RuntimeEventRaw = { source, payload };
  if (method !== undefined) value.method = method;
  if (messageType !== undefined) value.messageType = messageType;
  return value;
}

/** Drops undefined fields so the event matches the schema under exactOptionalPropertyTypes and in JSON. */
export function compact<T extends Record<string, unknown>>(value: T): T {
  for (const key in value) {
    if (value[key] === undefined) {
      const copy: Record<string, unknown> = {};
      for (const k in value) if (value[k] !== undefined) copy[k] = value[k];
      return copy as T;
    }
  }
  return value;
}

/**
 * The refs with a non-empty string value, or undefined when there are none. A plain refs object whose values all
 * are non-empty strings is returned itself rather than copied (most are: mappers cache them per thread, turn
 * and item), so events may share it; nothing mutates a refs object once it was handed to the builder.
 */
function compactRefs(refs: EventContext["providerRefs"]): Record<string, string> | undefined {
  if (refs === undefined) return undefined;
  if (isCompact(refs)) return refs as Record<string, string>;
  let out: Record<string, string> | undefined;
  for (const key in refs) {
    const value = refs[key as keyof ProviderRefs];
    if (typeof value === "string" && value.length > 0) {
      out ??= {};
      out[key] = value;
    }
  }
  return out;
}

/** A plain object with at least one key, each an own non-empty string: compactRefs would copy it unchanged. */
function isCompact(refs: object): boolean {
  if (Object.getPrototypeOf(refs) !== Object.prototype) return false;
  let empty = true;
  for (const key in refs) {
    const value = (refs as Record<string, unknown>)[key];
    if (typeof value !== "string" || value.length === 0 || !Object.hasOwn(refs, key)) return false;
    empty = false;
  }
  return !empty;
}

export type { RuntimeEvent };
