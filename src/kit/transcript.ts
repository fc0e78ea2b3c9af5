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
  const trimmed = text.trim();
  if (trimmed.length === 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return withLine({ kind: "malformed", text: trimmed, reason: errorText(error) }, line);
  }
  return withLine(entryFromValue(value), line);
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
