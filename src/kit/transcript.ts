/** One line of a transcript, read into what a mapper consumes. */
export type TranscriptDirection = "in" | "out";

export type TranscriptEntry =
  | { kind: "message"; dir: TranscriptDirection; msg: unknown; t?: string; line?: number }
  | { kind: "malformed"; text: string; reason: string; t?: string; line?: number }
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
  const entry = entryFromValue(value);
  if (source !== undefined && entry.kind === "message" && entry.msg === value) {
    source.msg = value as object; // a bare message (entryFromValue only returns the value itself for an object)
    source.text = trimmed;
  }
  return withLine(entry, line);
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

/** Our own transcript line for a live record. */
export function transcriptLine(dir: TranscriptDirection, msg: unknown, t: string): string {
  return JSON.stringify({ t, dir, msg });
}

/** Entries are fresh objects (entryFromValue builds a new one per line), so the number is set in place. */
function withLine(entry: TranscriptEntry, line: number | undefined): TranscriptEntry {
  if (line !== undefined) entry.line = line;
  return entry;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function safeText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
