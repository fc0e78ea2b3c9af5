import {
  jsonWithoutRecursion,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  RAW_PREVIEW_CHARS,
  textPreview,
} from "./json-depth.js";

export { MAX_JSON_DEPTH, nestsDeeperThan, RAW_PREVIEW_CHARS } from "./json-depth.js";

/** One line of a transcript, read into what a mapper consumes. */
export type TranscriptDirection = "in" | "out";

/**
 * Why a line could not be read at all, beyond plain malformed JSON: it nests deeper than MAX_JSON_DEPTH, or it is
 * longer than the reader's maximum. Its `text` is then only the line's first RAW_PREVIEW_CHARS characters.
 */
export type UnreadableLineCode = "too-deep" | "too-long";

export type TranscriptEntry =
  | { kind: "message"; dir: TranscriptDirection; msg: unknown; t?: string; line?: number }
  | {
      kind: "malformed";
      text: string;
      reason: string;
      code?: UnreadableLineCode;
      t?: string;
      line?: number;
    }
  | { kind: "skipped"; channel: string; line?: number };

const INBOUND = new Set(["in", "server->client", "agent->client"]);
const OUTBOUND = new Set(["out", "client->server", "client->agent"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function timestampOf(value: Record<string, unknown>): string | undefined {
  const t = value.t ?? value.ts;
  if (typeof t === "string" && t.length > 0) return t;
  if (typeof t === "number") {
    const date = new Date(t);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  return undefined;
}

/**
 * Reads one transcript line in any of the accepted formats (DESIGN.md §3):
 * `{t, dir, msg}` (ours), `{ts, channel, message}` (probe; other channels are skipped),
 * `{ms, dir: "server->client", msg}`, or a bare native message (inbound).
 */
export function parseTranscriptLine(text: string, line?: number): TranscriptEntry | undefined {
  return readTranscriptLine(text, line, undefined);
}

/** Where readTranscriptLine reports the JSON text a message was parsed from. */
export interface MessageText {
  /** The parsed message (an object), or undefined when its text is not known. */
  msg: object | undefined;
  /** Exactly the text `msg` was parsed from (may hold whitespace or escapes JSON.stringify would not write). */
  text: string;
}

/** The head our own lines start with (transcriptLine): a timestamp without escapes and a direction. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a JSON string holds no raw control character
const OWN_HEAD = /^\{"t":"([^"\\\u0000-\u001f]*)","dir":"(in|out)","msg":/;

/**
 * parseTranscriptLine, also reporting in `source` the source text of the message when it is an object: for our
 * own `{"t":…,"dir":…,"msg":…}` lines the text between the head and the final `}` (parsed on its own, so it is
 * exactly the message: a line with more keys or a second `msg` fails that parse and takes the general path), for
 * a bare native message the whole trimmed line.
 */
export function readTranscriptLine(
  text: string,
  line: number | undefined,
  source: MessageText | undefined,
): TranscriptEntry | undefined {
  if (source !== undefined) source.msg = undefined;
  const trimmed = text.trim();
  if (trimmed.length === 0) return undefined;
  const own = OWN_HEAD.exec(trimmed);
  if (own !== null && trimmed.charCodeAt(trimmed.length - 1) === 0x7d /* } */) {
    const msgText = trimmed.slice(own[0].length, -1);
    let msg: unknown;
    try {
      msg = JSON.parse(msgText);
    } catch {
      msg = undefined; // not just one value: read the whole line below
    }
    if (msg !== undefined) {
      // The line nests one level more than its message; only a text this long can nest that deep.
      if (msgText.length >= 2 * MAX_JSON_DEPTH && nestsDeeperThan(msg, MAX_JSON_DEPTH - 1))
        return withLine(tooDeepEntry(trimmed, own[1] as string), line);
      if (source !== undefined && typeof msg === "object" && msg !== null) {
        source.msg = msg;
        source.text = msgText;
      }
      // What entryFromValue makes of `{t, dir, msg}`: an empty timestamp is no timestamp.
      const t = own[1] as string;
      const dir = own[2] as TranscriptDirection;
      const entry: TranscriptEntry =
        t.length > 0 ? { kind: "message", dir, msg, t } : { kind: "message", dir, msg };
      return withLine(entry, line);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return withLine({ kind: "malformed", text: trimmed, reason: errorText(error) }, line);
  }
  if (trimmed.length > 2 * MAX_JSON_DEPTH && nestsDeeperThan(value, MAX_JSON_DEPTH))
    return withLine(tooDeepEntry(trimmed, isRecord(value) ? timestampOf(value) : undefined), line);
  const entry = entryFromValue(value);
  if (source !== undefined && entry.kind === "message" && entry.msg === value) {
    source.msg = value as object; // a bare message (entryFromValue only returns the value itself for an object)
    source.text = trimmed;
  }
  return withLine(entry, line);
}

/**
 * A line that nests deeper than MAX_JSON_DEPTH: mappers, serialisers and every consumer after them would
 * overflow the stack on it, so it is a malformed entry holding the line's first characters.
 */
function tooDeepEntry(text: string, t: string | undefined): TranscriptEntry {
  const reason = `nests deeper than ${MAX_JSON_DEPTH} levels (raw holds at most its first ${RAW_PREVIEW_CHARS} characters)`;
  const entry: TranscriptEntry = { kind: "malformed", text: textPreview(text), reason, code: "too-deep" };
  if (t !== undefined && t.length > 0) entry.t = t;
  return entry;
}

/**
 * A line longer than a reader's maximum (`maxBytes`), which the reader did not keep: `head` is its beginning,
 * `bytes` its length. Kept apart from readTranscriptLine because such a line is never parsed.
 */
export function overlongLineEntry(
  head: string,
  bytes: number,
  maxBytes: number,
  line?: number,
): TranscriptEntry {
  const reason = `${bytes} bytes long, over the maximum of ${maxBytes} (raw holds at most its first ${RAW_PREVIEW_CHARS} characters)`;
  return withLine({ kind: "malformed", text: textPreview(head), reason, code: "too-long" }, line);
}

export function entryFromValue(value: unknown): TranscriptEntry {
  if (!isRecord(value)) return { kind: "malformed", text: safeText(value), reason: "not a JSON object" };
  // A probe line's bookkeeping channels (lifecycle, scenario-result, ...) may carry no message at all.
  if (typeof value.channel === "string" && !("message" in value) && !("msg" in value)) {
    return INBOUND.has(value.channel) || OUTBOUND.has(value.channel)
      ? { kind: "malformed", text: safeText(value), reason: `no message on channel ${value.channel}` }
      : { kind: "skipped", channel: value.channel };
  }
  const direction = value.dir ?? value.channel;
  const msg = "msg" in value ? value.msg : value.message;
  if (typeof direction === "string" && msg !== undefined && ("msg" in value || "message" in value)) {
    const t = timestampOf(value);
    const dir = INBOUND.has(direction) ? "in" : OUTBOUND.has(direction) ? "out" : undefined;
    if (dir === undefined) return { kind: "skipped", channel: direction };
    return t === undefined ? { kind: "message", dir, msg } : { kind: "message", dir, msg, t };
  }
  return { kind: "message", dir: "in", msg: value };
}

/**
 * Our own transcript line for a live record. A record too deep for JSON.stringify is written all the same, by a
 * loop: the transcript keeps the traffic as it was (reading it back gives a too-deep warning).
 */
export function transcriptLine(dir: TranscriptDirection, msg: unknown, t: string): string {
  const line = { t, dir, msg };
  try {
    return JSON.stringify(line);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return jsonWithoutRecursion(line) as string;
  }
}

/** Entries are fresh objects (entryFromValue builds a new one per line), so the number is set in place. */
function withLine(entry: TranscriptEntry, line: number | undefined): TranscriptEntry {
  if (line !== undefined) entry.line = line;
  return entry;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The text of a value read from a line (JSON data). String() of a deep array recurses as JSON.stringify does, so
 * a value JSON.stringify cannot write gets the start of its JSON, written by a loop.
 */
function safeText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return jsonWithoutRecursion(value, RAW_PREVIEW_CHARS) ?? "";
    } catch (error) {
      return `(not writable as JSON: ${errorText(error)})`;
    }
  }
}
