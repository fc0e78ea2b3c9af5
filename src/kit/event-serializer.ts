import { EnvelopeWriter } from "./envelope-writer.js";
import { RawWriter } from "./raw-writer.js";

/**
 * JSON lines for canonical events in which each native record is serialised at most once, and not at all when the
 * text it was parsed from is at hand. Pure: no Node built-ins.
 *
 * - The events one record produces share its `raw` object (or raw objects that share the record as `payload`);
 *   the raw's JSON is built once, the payload's JSON once per payload object.
 * - EventBuilder writes `raw` as an event's last key, so an event's JSON is its JSON without `raw`, then
 *   `,"raw":` and the raw's JSON. The part before `raw` is written by EnvelopeWriter from cached pieces, and a
 *   raw record by RawWriter, when they have the builder's shape; otherwise the event is serialised with `raw` set
 *   to 0 and the raw spliced in. An event whose `raw` is not its last own key, that cannot take a new value for
 *   it (frozen) or that has a `toJSON` takes the plain `JSON.stringify` path, so the output never depends on how
 *   the event was built.
 * - The payload is usually the native message itself, parsed from a transcript line whose text is still at hand
 *   (`source`, fed by LineNormalizer from readTranscriptLine). That text is written as the payload, as read: the
 *   native record keeps its own spelling (a 64-bit integer stays exact, `1.0` stays `1.0`), and `JSON.parse` of
 *   the line gives what `JSON.parse(JSON.stringify(event))` gives. A text with a line break (only possible when a
 *   caller hands a pretty-printed record to `source`) is serialised instead, so every event stays one line.
 *   This relies on mappers treating the native message as read-only, which they do (the fixture test checks it).
 */
export class EventSerializer {
  readonly #envelope = new EnvelopeWriter();
  readonly #rawWriter = new RawWriter();
  #raw: object | undefined;
  #rawJson = "";
  #payload: object | undefined;
  #payloadJson = "";
  #source: object | undefined;
  #sourceText = "";

  /**
   * Declares the record being mapped: `msg` was parsed from `text` (exactly; see readTranscriptLine). Undefined
   * when there is none. Only the latest record is remembered.
   */
  source(msg: object | undefined, text: string): void {
    this.#source = msg;
    this.#sourceText = msg === undefined ? "" : text;
  }

  serialize(event: object): string {
    const record = event as Record<string, unknown>;
    const rawValue = record.raw;
    const rawIsObject = typeof rawValue === "object" && rawValue !== null;
    if (rawIsObject || rawValue === undefined) {
      const head = this.#envelope.head(event, rawIsObject);
      if (head !== undefined) return rawIsObject ? `${head},"raw":${this.#rawOf(rawValue)}}` : `${head}}`;
    }
    if (
      typeof rawValue !== "object" ||
      rawValue === null ||
      typeof record.toJSON === "function" ||
      !Object.hasOwn(record, "raw")
    )
      return JSON.stringify(event);
    // The event's JSON with `raw` set to 0 ends in `,"raw":0}` exactly when `raw` is its last key (a value's JSON
    // cannot end in `,"raw":0`, nor can a key end in `,"raw"` unescaped), so no separate look at the keys is needed.
    // The value is put back however JSON.stringify ends; a frozen event (or a read-only raw) cannot take the 0.
    try {
      record.raw = 0;
    } catch {
      return JSON.stringify(event);
    }
    let head: string;
    try {
      head = JSON.stringify(event);
    } finally {
      record.raw = rawValue;
    }
    if (!head.endsWith(RAW_TAIL)) return JSON.stringify(event);
    return `${head.slice(0, -2)}${this.#rawOf(rawValue)}}`;
  }

  /** Forgets the cached raw and source, so the serializer holds no reference to a record it has done with. */
  reset(): void {
    this.#raw = undefined;
    this.#rawJson = "";
    this.#payload = undefined;
    this.#payloadJson = "";
    this.#source = undefined;
    this.#sourceText = "";
  }

  #rawOf(rawValue: object): string {
    if (rawValue === this.#raw) return this.#rawJson;
    const payload = (rawValue as Record<string, unknown>).payload;
    let json: string | undefined;
    if (
      typeof payload === "object" &&
      payload !== null &&
      typeof (payload as { toJSON?: unknown }).toJSON !== "function"
    ) {
      const payloadJson = this.#payloadJsonOf(payload);
      json =
        this.#rawWriter.json(rawValue, payloadJson) ??
        withPayload(rawValue as Record<string, unknown>, payloadJson);
    }
    json ??= JSON.stringify(rawValue);
    this.#raw = rawValue;
    this.#rawJson = json;
    return json;
  }

  #payloadJsonOf(payload: object): string {
    if (payload !== this.#payload) {
      this.#payload = payload;
      this.#payloadJson =
        payload === this.#source && !hasLineBreak(this.#sourceText)
          ? this.#sourceText
          : JSON.stringify(payload);
    }
    return this.#payloadJson;
  }
}

/** The JSON line of each event (see EventSerializer). */
export function serializeEvents(events: readonly object[]): string[] {
  const serializer = new EventSerializer();
  return events.map((event) => serializer.serialize(event));
}

const RAW_TAIL = ',"raw":0}';
const PAYLOAD_MARK = '"payload":0';

/**
 * `JSON.stringify(record)` with `json` written for the value of `payload`, for a plain object whose other values
 * are primitives (a raw record: source, method, messageType); undefined for anything else. The record is
 * serialised with `payload` set to 0: no other value can hold `"payload":0` unescaped, so its first occurrence is
 * the key's, and the key is written exactly once.
 */
function withPayload(record: Record<string, unknown>, json: string): string | undefined {
  if (Object.getPrototypeOf(record) !== Object.prototype) return undefined;
  for (const name in record) {
    const value = record[name];
    if (typeof value === "object" && value !== null && name !== "payload") return undefined;
  }
  const payload = record.payload;
  let text: string;
  try {
    record.payload = 0;
  } catch {
    return undefined;
  }
  try {
    text = JSON.stringify(record);
  } finally {
    record.payload = payload;
  }
  const at = text.indexOf(PAYLOAD_MARK);
  if (at < 0) return undefined;
  const after = at + PAYLOAD_MARK.length;
  return `${text.slice(0, after - 1)}${json}${text.slice(after)}`;
}

function hasLineBreak(text: string): boolean {
  return text.includes("\n") || text.includes("\r");
}
