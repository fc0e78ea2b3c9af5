import { EnvelopeWriter } from "./envelope-writer.js";
import { jsonWithoutRecursion, RAW_PREVIEW_CHARS } from "./json-depth.js";
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

  /**
   * The event's JSON line. An event JSON.stringify cannot write — a value nested past the stack's reach (a live
   * record that no reader checked), or past the longest string — is written as a `runtime.warning` in its place,
   * with the same envelope and the start of its raw payload, so the stream goes on in sequence.
   */
  serialize(event: object): string {
    try {
      return this.#serialize(event);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return JSON.stringify(unwritableEventWarning(event, error));
    }
  }

  #serialize(event: object): string {
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
      // written before it is cached: a payload JSON.stringify throws on must not leave a stale cache behind
      const json =
        payload === this.#source && !hasLineBreak(this.#sourceText)
          ? this.#sourceText
          : JSON.stringify(payload);
      this.#payload = payload;
      this.#payloadJson = json;
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

/** The envelope fields an unwritable event's warning keeps (none of them names an entity it might not open). */
const KEPT_ENVELOPE = ["eventId", "sequence", "provider", "sessionId", "createdAt"] as const;

/**
 * What EventSerializer writes for an event JSON.stringify threw a RangeError on: a `runtime.warning` with the
 * event's envelope and, as raw, the first characters of its raw payload (or of its payload) written by a loop.
 */
function unwritableEventWarning(event: object, error: RangeError): object {
  const record = event as Record<string, unknown>;
  const reason = error.message.includes("call stack") ? "too-deep" : "too-large";
  const warning: Record<string, unknown> = {};
  for (const key of KEPT_ENVELOPE) {
    const value = record[key];
    if (typeof value === "string" || typeof value === "number") warning[key] = value;
  }
  const eventType = typeof record.type === "string" ? record.type : "(untyped)";
  const what = reason === "too-deep" ? "nests too deep to write" : "is too large to write";
  warning.type = "runtime.warning";
  warning.payload = {
    message: `${eventType} event not written: it ${what} (raw holds the start of its record)`,
    detail: { reason, eventType },
  };
  const raw = record.raw;
  const rawRecord = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : undefined;
  const source = typeof rawRecord?.source === "string" ? rawRecord.source : "runtime.transcript";
  warning.raw = { source, payload: previewOf(rawRecord === undefined ? record.payload : rawRecord.payload) };
  return warning;
}

function previewOf(value: unknown): string {
  try {
    return jsonWithoutRecursion(value, RAW_PREVIEW_CHARS) ?? "";
  } catch (error) {
    return `(not writable as JSON: ${error instanceof Error ? error.message : "unknown error"})`;
  }
}

function hasLineBreak(text: string): boolean {
  return text.includes("\n") || text.includes("\r");
}
