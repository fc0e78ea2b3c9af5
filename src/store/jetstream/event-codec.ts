import type { RuntimeEvent } from "../../contracts/events.js";

/**
 * How canonical events are laid out in the stream. A message holds a run of consecutive events of one session,
 * each event's JSON as appended on a line of its own (JSON.stringify never writes a raw line break), as many as
 * fit in one message (`max_payload`, 1 MiB by default); an event larger than that is alone, split in parts over
 * consecutive messages of its subject. A JetStream publish costs far more than its bytes (a request, an ack, a
 * socket write), so a run per message lets a node store what a busy agent writes, the way the SQLite store
 * commits a batch per transaction.
 *
 * Headers give a message's place in its session's log without reading its body: the first and last canonical
 * sequence it holds and its last event's id (so a half-written split event, whose node died between parts, is
 * told apart from the event written after it).
 */
export const HEADER_FIRST = "Pr-Sequence";
export const HEADER_LAST = "Pr-Last-Sequence";
export const HEADER_EVENT_ID = "Pr-Event-Id";
/** `k/n`: part k of n, only on an event split in parts. */
export const HEADER_PART = "Pr-Part";

/** Room left in each message for the subject, headers and protocol framing. */
const HEADER_ROOM = 1024;
/** Events per message at most, so a reader never holds a huge run to skip a few. */
const MAX_RUN = 512;

export interface EncodedEvent {
  sequence: number;
  eventId: string;
  json: Uint8Array;
}

/** One message to publish: a run of whole events, or one part of a split event. */
export interface OutgoingMessage {
  /**
   * JetStream de-duplicates by it: the event id for a message of one event (`#k` appended for its parts), the
   * first event's id and the run's length for a run, so a retried publish of the same message is stored once.
   */
  msgId: string;
  first: number;
  last: number;
  /** The last event's id. */
  eventId: string;
  part: number;
  parts: number;
  data: Uint8Array;
  /** The events the message completes (0 for a part that is not the last). */
  completes: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NEWLINE = 0x0a;

export function encodeEvent(event: RuntimeEvent): EncodedEvent {
  return { sequence: event.sequence, eventId: event.eventId, json: encoder.encode(JSON.stringify(event)) };
}

/** The largest body of one message on a server that takes `maxPayload`. */
export function bodyLimit(maxPayload: number): number {
  return Math.max(1024, maxPayload - HEADER_ROOM);
}

/**
 * The next message for `events` (the head of a session's queue): as many whole events as fit, or, when the
 * first does not fit alone, its part `fromPart`.
 */
export function nextMessage(events: readonly EncodedEvent[], limit: number, fromPart = 1): OutgoingMessage {
  const head = events[0];
  if (head === undefined) throw new Error("no event to publish");
  if (head.json.length > limit) {
    const parts = Math.ceil(head.json.length / limit);
    const part = Math.min(Math.max(1, fromPart), parts);
    return {
      msgId: `${head.eventId}#${part}`,
      first: head.sequence,
      last: head.sequence,
      eventId: head.eventId,
      part,
      parts,
      data: head.json.subarray((part - 1) * limit, part * limit),
      completes: part === parts ? 1 : 0,
    };
  }
  let count = 1;
  let size = head.json.length;
  for (; count < events.length && count < MAX_RUN; count++) {
    const next = events[count] as EncodedEvent;
    if (size + 1 + next.json.length > limit) break;
    size += 1 + next.json.length;
  }
  const run = events.slice(0, count);
  const last = run[run.length - 1] as EncodedEvent;
  const data = new Uint8Array(size);
  let offset = 0;
  for (const [index, event] of run.entries()) {
    if (index > 0) data[offset++] = NEWLINE;
    data.set(event.json, offset);
    offset += event.json.length;
  }
  return {
    msgId: count === 1 ? head.eventId : `${head.eventId}+${count}`,
    first: head.sequence,
    last: last.sequence,
    eventId: last.eventId,
    part: 1,
    parts: 1,
    data,
    completes: count,
  };
}

/** A stored message's place in its session's log. */
export interface StoredPosition {
  first: number;
  last: number;
  eventId: string;
  part: number;
  parts: number;
}

interface HeaderReader {
  get(key: string): string;
}

export function positionOf(headers: HeaderReader | undefined): StoredPosition | undefined {
  if (headers === undefined) return undefined;
  const first = Number(headers.get(HEADER_FIRST));
  if (!Number.isSafeInteger(first) || first < 1) return undefined;
  const lastText = headers.get(HEADER_LAST);
  const last = lastText === "" ? first : Number(lastText);
  if (!Number.isSafeInteger(last) || last < first) return undefined;
  const [part, parts] = partOf(headers.get(HEADER_PART));
  return { first, last, eventId: headers.get(HEADER_EVENT_ID), part, parts };
}

function partOf(value: string): [number, number] {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (!match) return [1, 1];
  const part = Number(match[1]);
  const parts = Number(match[2]);
  return part >= 1 && part <= parts ? [part, parts] : [1, 1];
}

/**
 * Rebuilds events from the messages of one subject, in stream order. A part 1 starts a split event; a part that
 * does not continue the event being built (its node died between parts and the session went on from another
 * node) drops the unfinished one. A message without our headers, or a body that is not our JSON, yields nothing.
 */
export class EventAssembler {
  #building: { position: StoredPosition; chunks: Uint8Array[] } | undefined;

  /** The events this message completes, in order (none for a part that is not the last). */
  push(headers: HeaderReader | undefined, data: Uint8Array): RuntimeEvent[] {
    const position = positionOf(headers);
    if (position === undefined) return [];
    if (position.parts === 1) {
      this.#building = undefined;
      return parseRun(data);
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
      return [];
    }
    building.chunks.push(data);
    if (position.part < position.parts) return [];
    this.#building = undefined;
    return parseRun(concat(building.chunks));
  }
}

function parseRun(data: Uint8Array): RuntimeEvent[] {
  const events: RuntimeEvent[] = [];
  for (const line of decoder.decode(data).split("\n")) {
    try {
      events.push(JSON.parse(line) as RuntimeEvent);
    } catch {
      // not ours: skipped
    }
  }
  return events;
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
