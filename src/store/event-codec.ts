import { hash } from "node:crypto";
import type { RuntimeEvent } from "../contracts/events.js";

/** A native record as stored: its JSON once per session, found again by the SHA-256 of that JSON. */
export interface EncodedRaw {
  json: string;
  /** SHA-256 of `json`, base64. */
  hash: string;
}

/** One event ready for its row: the event's JSON with `raw` replaced by {@link RAW_PLACEHOLDER}, and the raw. */
export interface EncodedEvent {
  sequence: number;
  body: string;
  raw: EncodedRaw | undefined;
}

/**
 * What stands in an event's JSON where its `raw` was. Decoding puts the record back under the same key, so the
 * key keeps its place and `JSON.stringify` of the decoded event equals that of the appended one.
 */
export const RAW_PLACEHOLDER = 0;

/**
 * Encodes the events of one `append`. Consecutive events usually carry the same raw object (the mapper derives
 * several events from one native record); it is serialized and hashed once.
 */
export function encodeEvents(events: readonly RuntimeEvent[]): EncodedEvent[] {
  let lastRaw: unknown;
  let lastEncoded: EncodedRaw | undefined;
  return events.map((event) => {
    const raw: unknown = event.raw;
    if (raw === undefined) return { sequence: event.sequence, body: JSON.stringify(event), raw: undefined };
    if (raw !== lastRaw || lastEncoded === undefined) {
      lastRaw = raw;
      lastEncoded = encodeRaw(raw);
    }
    return { sequence: event.sequence, body: JSON.stringify(withRawPlaceholder(event)), raw: lastEncoded };
  });
}

function encodeRaw(raw: unknown): EncodedRaw {
  const json = JSON.stringify(raw);
  return { json, hash: hash("sha256", json, "base64") };
}

/** A shallow copy with the same keys in the same order, `raw` swapped for the placeholder. */
function withRawPlaceholder(event: RuntimeEvent): Record<string, unknown> {
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(event))
    copy[key] = key === "raw" ? RAW_PLACEHOLDER : (event as unknown as Record<string, unknown>)[key];
  return copy;
}

/** The stored row back to the event as appended; `raw` is the parsed record (shared by the events of one read). */
export function decodeEvent(body: string, raw: unknown): RuntimeEvent {
  const event = JSON.parse(body) as Record<string, unknown>;
  if (raw !== undefined) event.raw = raw;
  return event as unknown as RuntimeEvent;
}
