/**
 * JSON lines for canonical events, byte-identical to `JSON.stringify(event)`, but each native record is
 * serialised at most once, and not at all when its source text is known and canonical. Pure: no Node built-ins.
 *
 * - The events one record produces share its `raw` object (or raw objects that share the record as `payload`);
 *   the raw's JSON is built once, the payload's JSON once per payload object.
 * - EventBuilder writes `raw` as an event's last key, so an event's JSON is its JSON without `raw`, then
 *   `,"raw":` and the raw's JSON. An event whose `raw` is not its last own key, that cannot take a new value for
 *   it (frozen) or that has a `toJSON` takes the plain `JSON.stringify` path, so the output never depends on how
 *   the event was built.
 * - The payload is usually the native message itself, parsed from a transcript line whose text is still at hand
 *   (`source`, fed by LineNormalizer from readTranscriptLine). That text is written as the payload's JSON,
 *   without serialising the message again, when it passes `isCanonicalJson`: no whitespace outside strings, only
 *   the escapes JSON.stringify writes, numbers spelt as JSON.stringify spells them, no array-index keys (JSON.parse
 *   moves those first) and no lone surrogates. Then it is exactly `JSON.stringify(JSON.parse(text))`, with one
 *   exception the check cannot see: a text with a duplicate key is written as read (JSON.parse of the output
 *   still gives the same value, the last one winning). Our own transcripts are written by JSON.stringify, so they
 *   always pass; any other text (pretty-printed, Python's `", "`, `1.0`, `\/`, `\u00e9`) is serialised as before.
 *   This relies on mappers treating the native message as read-only, which they do (the fixture test checks it).
 */
export class EventSerializer {
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
    )
      json = withValue(rawValue, "payload", this.#payloadJsonOf(payload));
    json ??= JSON.stringify(rawValue);
    this.#raw = rawValue;
    this.#rawJson = json;
    return json;
  }

  #payloadJsonOf(payload: object): string {
    if (payload !== this.#payload) {
      this.#payload = payload;
      this.#payloadJson =
        payload === this.#source && isCanonicalJson(this.#sourceText)
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

/**
 * `JSON.stringify(record)` with `json` written for the value of `key`, for a plain object whose other values are
 * primitives (a raw record: source, method, messageType); undefined for anything else.
 */
function withValue(record: object, key: string, json: string): string | undefined {
  if (Object.getPrototypeOf(record) !== Object.prototype) return undefined;
  let out = "";
  // for…in over a plain object (nothing enumerable inherited) visits Object.keys' keys in their order
  for (const name in record) {
    let valueJson: string;
    if (name === key) valueJson = json;
    else {
      if (!Object.hasOwn(record, name)) return undefined;
      const value = (record as Record<string, unknown>)[name];
      if (typeof value === "string")
        valueJson = SIMPLE_STRING.test(value) ? `"${value}"` : JSON.stringify(value);
      else if (value === undefined) continue;
      else if (value === null || typeof value === "number" || typeof value === "boolean")
        valueJson = JSON.stringify(value);
      else return undefined;
    }
    const nameJson = SIMPLE_STRING.test(name) ? `"${name}":` : `${JSON.stringify(name)}:`;
    out = out.length > 0 ? `${out},${nameJson}${valueJson}` : `{${nameJson}${valueJson}`;
  }
  return out.length > 0 ? `${out}}` : "{}";
}

/** A short string JSON.stringify writes as is, between quotes. */
const SIMPLE_STRING = /^[\w$./:@ -]{0,64}$/;

// What JSON.stringify writes, token by token. Strings: any character but `"` and `\`, and only the escapes it
// writes (`\"`, `\\`, the short ones, and `\u00xx` in lower case for the other control characters; lone
// surrogates, which it writes as `\udxxx`, are left to the slow path). Numbers: a subset it spells exactly so —
// integers of up to 15 digits and decimals of up to 15 significant digits, no trailing zero, no exponent, at least
// 1e-6 and under 1e7; each is unique among such spellings of its double, so it is the shortest one JSON.stringify
// writes. A number must end where the token ends (else `1.50` could pass as `1.5` and `0`).
const CANONICAL_STRING = String.raw`"[^"\\]*(?:\\(?:["\\bfnrt]|u00(?:0[0-7bef]|1[0-9a-f]))[^"\\]*)*"`;
const CANONICAL_NUMBER = String.raw`(?:-?[1-9]\d{0,6}\.\d{0,7}[1-9]|-?0\.0{0,5}[1-9](?:\d{0,13}[1-9])?|-?[1-9]\d{0,14}|0)(?![\d.eE+-])`;
const CANONICAL = new RegExp(
  String.raw`^(?:[{}\[\],:]|${CANONICAL_STRING}|${CANONICAL_NUMBER}|true|false|null)*$`,
);
/** An array-index key (JSON.parse enumerates those first, in numeric order); also matches inside strings. */
const INDEX_KEY = /"(?:0|[1-9]\d*)":/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * True when `text`, a valid JSON text, is what JSON.stringify writes for the value JSON.parse reads from it, up to
 * duplicate keys (see EventSerializer). False when in doubt.
 */
export function isCanonicalJson(text: string): boolean {
  try {
    return CANONICAL.test(text) && !INDEX_KEY.test(text) && isWellFormed(text);
  } catch {
    return false; // a text too large for the regular expression's backtracking stack
  }
}

function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native === undefined ? !LONE_SURROGATE.test(text) : native.call(text);
}
