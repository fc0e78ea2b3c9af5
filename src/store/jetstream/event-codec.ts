import type { RuntimeEvent } from "../../contracts/events.js";

/**
 * How a canonical event is laid out in the stream. An event is its JSON, as appended, in one message, or in
 * several consecutive messages of its session's subject when the JSON is larger than what the server takes in
 * one message (`max_payload`, 1 MiB by default). Every part carries its event's sequence and id, so the log can
 * be searched by sequence without reading bodies, and a half-written event (its node died mid-event) is told
 * apart from the event written after it.
 */
export const HEADER_SEQUENCE = "Pr-Sequence";
export const HEADER_EVENT_ID = "Pr-Event-Id";
/** `k/n`: part k of n, present only on events split in parts. */
export const HEADER_PART = "Pr-Part";

/** Room left in each message for the subject, headers and protocol framing. */
const HEADER_ROOM = 1024;

export interface EventPart {
  /** The message id JetStream de-duplicates by: the event id, `#k` appended for parts of a split event. */
  msgId: string;
  part: number;
  parts: number;
  data: Uint8Array;
}

export interface EncodedEvent {
  sequence: number;
  eventId: string;
  parts: EventPart[];
  bytes: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeEvent(event: RuntimeEvent, maxPayload: number): EncodedEvent {
  const data = encoder.encode(JSON.stringify(event));
  const size = Math.max(1024, maxPayload - HEADER_ROOM);
  const count = Math.max(1, Math.ceil(data.length / size));
  const parts: EventPart[] = [];
  for (let k = 1; k <= count; k++) {
    const slice = data.subarray((k - 1) * size, k * size);
    parts.push({
      msgId: count === 1 ? event.eventId : `${event.eventId}#${k}`,
      part: k,
      parts: count,
      data: slice,
    });
  }
  return { sequence: event.sequence, eventId: event.eventId, parts, bytes: data.length };
}

/** The position a stored message holds in its session's log. */
export interface StoredPosition {
  sequence: number;
  eventId: string;
  part: number;
  parts: number;
}

interface HeaderReader {
  get(key: string): string;
}

export function positionOf(headers: HeaderReader | undefined): StoredPosition | undefined {
  if (headers === undefined) return undefined;
  const sequence = Number(headers.get(HEADER_SEQUENCE));
  if (!Number.isSafeInteger(sequence) || sequence < 1) return undefined;
  const [part, parts] = partOf(headers.get(HEADER_PART));
  return { sequence, eventId: headers.get(HEADER_EVENT_ID), part, parts };
}

function partOf(value: string): [number, number] {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (!match) return [1, 1];
  const part = Number(match[1]);
  const parts = Number(match[2]);
  return part >= 1 && part <= parts ? [part, parts] : [1, 1];
}

/**
 * Rebuilds events from the messages of one subject, in stream order. A part 1 starts an event; a part that does
 * not continue the event being built (a node died between parts and the session went on from another node) drops
 * the unfinished one.
 */
export class EventAssembler {
  #building: { position: StoredPosition; chunks: Uint8Array[] } | undefined;

  /** The event this message completes, if any. */
  push(headers: HeaderReader | undefined, data: Uint8Array): RuntimeEvent | undefined {
    const position = positionOf(headers);
    if (position === undefined) return undefined;
    if (position.parts === 1) {
      this.#building = undefined;
      return parse(data);
    }
    if (position.part === 1) this.#building = { position, chunks: [] };
    const building = this.#building;
    if (
      building === undefined ||
      building.position.eventId !== position.eventId ||
      building.position.parts !== position.parts ||
      building.chunks.length !== position.part - 1
    ) {
      this.#building = undefined;
      return undefined;
    }
    building.chunks.push(data);
    if (position.part < position.parts) return undefined;
    this.#building = undefined;
    return parse(concat(building.chunks));
  }
}

function parse(data: Uint8Array): RuntimeEvent | undefined {
  try {
    return JSON.parse(decoder.decode(data)) as RuntimeEvent;
  } catch {
    return undefined;
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
