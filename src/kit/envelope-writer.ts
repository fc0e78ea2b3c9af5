import { RUNTIME_EVENT_TYPES } from "../contracts/event-types.js";
import { StringJsonCache } from "./string-json-cache.js";

/**
 * The JSON of an event envelope up to its `raw`, written from cached pieces rather than by `JSON.stringify` of the
 * whole event. Pure: no Node built-ins.
 *
 * `JSON.stringify` scans every character it writes, and an envelope is mostly ids, time, refs and type that the
 * previous event had too. Here each of those fields keeps the JSON of its last value (a string compared by value,
 * the refs object by identity: nothing mutates a refs object handed to EventBuilder), so an event costs one
 * `JSON.stringify` of its payload and a few string joins.
 *
 * Only an event shaped as EventBuilder builds it is written here: a plain object whose own enumerable keys are
 * envelope fields in the builder's order, ids and time as strings, a finite sequence, plain refs of strings and
 * an object payload; the output is then byte-identical to `JSON.stringify` up to `raw`. For anything else `head`
 * returns undefined and the caller serialises the event the plain way.
 */
export class EnvelopeWriter {
  #provider = new StringJsonCache();
  #sessionId = new StringJsonCache();
  #createdAt = new StringJsonCache();
  #threadId = new StringJsonCache();
  #turnId = new StringJsonCache();
  #itemId = new StringJsonCache();
  #requestId = new StringJsonCache();
  #parentItemId = new StringJsonCache();
  #refs: object | undefined;
  #refsJson = "";
  /** The keys the event must have, in order (filled per event; no allocation). */
  readonly #keys: string[] = [];

  /**
   * `{"eventId":…,"payload":…` without the closing brace; `hasRaw` says whether the event's last key is `raw`
   * (counted, not written). Undefined when the event is not builder-shaped.
   */
  head(event: object, hasRaw: boolean): string | undefined {
    if (Object.getPrototypeOf(event) !== Object.prototype) return undefined;
    const e = event as EnvelopeFields;
    const { eventId, sequence, provider, sessionId, createdAt, type, payload } = e;
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
    const keys = this.#keys;
    keys[0] = "eventId";
    keys[1] = "sequence";
    keys[2] = "provider";
    keys[3] = "sessionId";
    keys[4] = "createdAt";
    let fields = 5;
    let out = `{"eventId":${JSON.stringify(eventId)},"sequence":${sequence},"provider":${this.#provider.json(provider)},"sessionId":${this.#sessionId.json(sessionId)},"createdAt":${this.#createdAt.json(createdAt)}`;
    const { threadId, turnId, itemId, requestId, parentItemId, providerRefs } = e;
    if (threadId !== undefined) {
      if (typeof threadId !== "string") return undefined;
      keys[fields++] = "threadId";
      out += `,"threadId":${this.#threadId.json(threadId)}`;
    }
    if (turnId !== undefined) {
      if (typeof turnId !== "string") return undefined;
      keys[fields++] = "turnId";
      out += `,"turnId":${this.#turnId.json(turnId)}`;
    }
    if (itemId !== undefined) {
      if (typeof itemId !== "string") return undefined;
      keys[fields++] = "itemId";
      out += `,"itemId":${this.#itemId.json(itemId)}`;
    }
    if (requestId !== undefined) {
      if (typeof requestId !== "string") return undefined;
      keys[fields++] = "requestId";
      out += `,"requestId":${this.#requestId.json(requestId)}`;
    }
    if (parentItemId !== undefined) {
      if (typeof parentItemId !== "string") return undefined;
      keys[fields++] = "parentItemId";
      out += `,"parentItemId":${this.#parentItemId.json(parentItemId)}`;
    }
    if (providerRefs !== undefined) {
      const refs = this.#refsJsonOf(providerRefs);
      if (refs === undefined) return undefined;
      keys[fields++] = "providerRefs";
      out += `,"providerRefs":${refs}`;
    }
    keys[fields++] = "type";
    keys[fields++] = "payload";
    if (hasRaw) keys[fields++] = "raw";
    // The event's own keys must be exactly these, in this order: no key this writer would drop or move.
    let at = 0;
    for (const key in e) if (key !== keys[at++]) return undefined;
    if (at !== fields) return undefined;
    return `${out},"type":${TYPE_JSON.get(type) ?? JSON.stringify(type)},"payload":${JSON.stringify(payload)}`;
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
