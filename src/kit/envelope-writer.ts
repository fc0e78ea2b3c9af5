import { RUNTIME_EVENT_TYPES } from "../contracts/event-types.js";
import { hasKeysInOrder } from "./key-order.js";
import { StringField } from "./string-field.js";

/**
 * The JSON of an event envelope up to its `raw`, written from cached pieces rather than by `JSON.stringify` of the
 * whole event. Pure: no Node built-ins.
 *
 * `JSON.stringify` scans every character it writes, and an envelope is mostly ids, time, refs and type that the
 * previous event had too. Here each of those fields keeps the JSON of its last value (a string compared by value,
 * the refs object by identity: nothing mutates a refs object handed to EventBuilder), and a type's JSON comes from
 * a table of the canonical types, so an event costs one `JSON.stringify` of its payload and a few string joins.
 *
 * Only an event shaped as EventBuilder builds it is written here: a plain object whose own enumerable keys are
 * envelope fields in the builder's order, ids and time as strings, a finite sequence, plain refs of strings and
 * an object payload; the output is then byte-identical to `JSON.stringify` up to `raw`. For anything else `head`
 * returns undefined and the caller serialises the event the plain way.
 */
export class EnvelopeWriter {
  readonly #provider = new StringField("provider");
  readonly #sessionId = new StringField("sessionId");
  readonly #createdAt = new StringField("createdAt");
  readonly #threadId = new StringField("threadId");
  readonly #turnId = new StringField("turnId");
  readonly #itemId = new StringField("itemId");
  readonly #requestId = new StringField("requestId");
  readonly #parentItemId = new StringField("parentItemId");
  #refs: object | undefined;
  #refsJson = "";

  /**
   * `{"eventId":…,"payload":…` without the closing brace; `hasRaw` says whether the event's last key is `raw`
   * (counted, not written). Undefined when the event is not builder-shaped.
   */
  head(event: object, hasRaw: boolean): string | undefined {
    if (Object.getPrototypeOf(event) !== Object.prototype) return undefined;
    const e = event as EnvelopeFields;
    const { eventId, sequence, provider, sessionId, createdAt, threadId, turnId, itemId, requestId } = e;
    const { parentItemId, providerRefs, type, payload } = e;
    if (
      typeof eventId !== "string" ||
      typeof sequence !== "number" ||
      !Number.isFinite(sequence) ||
      typeof provider !== "string" ||
      typeof sessionId !== "string" ||
      typeof createdAt !== "string" ||
      typeof type !== "string" ||
      !isPlainObject(payload)
    )
      return undefined;
    const thread = this.#threadId.optionalMember(threadId);
    const turn = this.#turnId.optionalMember(turnId);
    const item = this.#itemId.optionalMember(itemId);
    const request = this.#requestId.optionalMember(requestId);
    const parent = this.#parentItemId.optionalMember(parentItemId);
    if (
      thread === undefined ||
      turn === undefined ||
      item === undefined ||
      request === undefined ||
      parent === undefined
    )
      return undefined;
    let json = `{"eventId":${JSON.stringify(eventId)},"sequence":${sequence}${this.#provider.member(provider)}${this.#sessionId.member(sessionId)}${this.#createdAt.member(createdAt)}${thread}${turn}${item}${request}${parent}`;
    // which optional keys are present: it picks the key order the event must have
    let present =
      (hasRaw ? RAW : 0) |
      (threadId === undefined ? 0 : THREAD) |
      (turnId === undefined ? 0 : TURN) |
      (itemId === undefined ? 0 : ITEM) |
      (requestId === undefined ? 0 : REQUEST) |
      (parentItemId === undefined ? 0 : PARENT);
    if (providerRefs !== undefined) {
      const refs = this.#refsJsonOf(providerRefs);
      if (refs === undefined) return undefined;
      json += `,"providerRefs":${refs}`;
      present |= REFS;
    }
    // no key this writer would drop or move
    if (!hasKeysInOrder(e, KEY_ORDERS[present] as readonly string[])) return undefined;
    return `${json},"type":${TYPE_JSON.get(type) ?? JSON.stringify(type)},"payload":${JSON.stringify(payload)}`;
  }

  #refsJsonOf(value: unknown): string | undefined {
    if (value === this.#refs) return this.#refsJson;
    if (!isPlainObject(value)) return undefined;
    for (const name in value) if (typeof value[name] !== "string") return undefined;
    this.#refs = value;
    this.#refsJson = JSON.stringify(value);
    return this.#refsJson;
  }
}

const THREAD = 1;
const TURN = 2;
const ITEM = 4;
const REQUEST = 8;
const PARENT = 16;
const REFS = 32;
const RAW = 64;

/** For each set of optional keys present (the bits above), the event's keys in the order EventBuilder writes them. */
const KEY_ORDERS: readonly (readonly string[])[] = Array.from({ length: 128 }, (_, present) => [
  "eventId",
  "sequence",
  "provider",
  "sessionId",
  "createdAt",
  ...(present & THREAD ? ["threadId"] : []),
  ...(present & TURN ? ["turnId"] : []),
  ...(present & ITEM ? ["itemId"] : []),
  ...(present & REQUEST ? ["requestId"] : []),
  ...(present & PARENT ? ["parentItemId"] : []),
  ...(present & REFS ? ["providerRefs"] : []),
  "type",
  "payload",
  ...(present & RAW ? ["raw"] : []),
]);

/** The canonical types' JSON: events alternate between a few types, too many for a last-value cache. */
const TYPE_JSON = new Map<string, string>(RUNTIME_EVENT_TYPES.map((type) => [type, JSON.stringify(type)]));

interface EnvelopeFields {
  eventId?: unknown;
  sequence?: unknown;
  provider?: unknown;
  sessionId?: unknown;
  createdAt?: unknown;
  threadId?: unknown;
  turnId?: unknown;
  itemId?: unknown;
  requestId?: unknown;
  parentItemId?: unknown;
  providerRefs?: unknown;
  type?: unknown;
  payload?: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function"
  );
}
