import type { JetStreamApiError } from "@nats-io/jetstream";
import { Fifo } from "../../kit/fifo.js";
import type { AppendBuffer } from "./append-buffer.js";
import { eventTag, type MessageCheck } from "./event-auth.js";
import {
  bodyLimit,
  type EncodedEvent,
  HEADER_EVENT_ID,
  HEADER_FIRST,
  HEADER_LAST,
  HEADER_PART,
  nextMessage,
  type OutgoingMessage,
  positionOf,
  type StoredPosition,
} from "./event-codec.js";
import type { MessageAuth } from "./message-auth.js";
import { HEADER_AUTH } from "./message-auth.js";
import type { NatsLink } from "./nats-link.js";
import { lastAuthentic } from "./subject-index.js";

/** JetStream's answer to a publish whose `Nats-Expected-Last-Subject-Sequence` is not the subject's last. */
const WRONG_LAST_SEQUENCE = 10071;
/** Events looked at to build one message (a message holds at most 512). */
const LOOKAHEAD = 512;

/** The last message of a session's subject: where the next publish goes on from. */
interface SubjectTail extends StoredPosition {
  streamSeq: number;
}

interface Pending {
  event: EncodedEvent;
  stored: () => void;
}

/**
 * Publishes one session's events, in order, one message in flight at a time (a message carries the run of events
 * queued meanwhile), retrying each until JetStream has it. Exactly once in the stream, whatever the retries:
 * - every message carries a `Nats-Msg-Id` made of its events' ids, so a retry inside the duplicate window is
 *   acknowledged as a duplicate, not stored again;
 * - every message expects the subject's last stream sequence to be the one this writer last saw
 *   (`Nats-Expected-Last-Subject-Sequence`), so a retry after the window, or a write by another node, is refused;
 *   the writer then reloads the subject's last message and skips what is already there (by canonical sequence).
 * One in flight keeps the order: two at once could be split by a reconnect, the later stored, the earlier lost.
 */
export class SessionWriter {
  readonly #queue = new Fifo<Pending>();
  #tail: SubjectTail | null | undefined;
  #running = false;
  #idle: Array<() => void> = [];

  constructor(
    readonly subject: string,
    readonly stream: string,
    readonly link: NatsLink,
    readonly buffer: AppendBuffer,
    /** Tags each message; undefined: none (a store without a cluster secret). */
    readonly auth: MessageAuth | undefined,
    /** Says whether a stored message is ours: a forged one at the subject's end is not where this writer goes on. */
    readonly check: MessageCheck,
  ) {}

  get idle(): boolean {
    return !this.#running && this.#length === 0;
  }

  get #length(): number {
    return this.#queue.length;
  }

  /** Queues events (room in the buffer already reserved); each one's `stored` runs once JetStream has it. */
  enqueue(events: readonly EncodedEvent[], stored: (event: EncodedEvent) => void): void {
    for (const event of events) this.#queue.push({ event, stored: () => stored(event) });
    if (!this.#running) void this.#run();
  }

  /** Resolves once everything queued is stored. */
  flushed(): Promise<void> {
    return this.idle ? Promise.resolve() : new Promise((resolve) => this.#idle.push(resolve));
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#length > 0) await this.#publishNext();
    } catch {
      // Only a closed connection ends the loop; what is queued stays counted in the buffer, and close() reports it.
    } finally {
      this.#running = false;
      if (this.#length === 0) for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  async #publishNext(): Promise<void> {
    // Every error but a refused expectation is retried: an event is never given up (health shows the error).
    if (this.#tail === undefined) this.#tail = await this.link.retry(() => this.#loadTail(), always);
    const tail = this.#tail;
    while (this.#length > 0 && isStored((this.#queue.peek() as Pending).event, tail)) this.#done(1);
    if (this.#length === 0) return;
    const lookahead = this.#queue.peekMany(LOOKAHEAD).map((pending) => pending.event);
    const limit = bodyLimit(this.link.maxPayload);
    const message = nextMessage(lookahead, limit, resumePart(lookahead[0] as EncodedEvent, tail, limit));
    const stored = await this.link
      .retry(
        () => this.#publish(message),
        (error) => !isWrongLastSequence(error),
      )
      .catch((error: unknown) => {
        if (isWrongLastSequence(error)) return undefined;
        throw error;
      });
    // Refused: something else is at the subject's end; look again before going on.
    this.#tail = stored;
    if (stored !== undefined) this.#done(message.completes);
  }

  #done(count: number): void {
    for (let i = 0; i < count; i++) {
      const pending = this.#queue.shift() as Pending;
      this.buffer.release(1, pending.event.json.length);
      pending.stored();
    }
  }

  async #publish(message: OutgoingMessage): Promise<SubjectTail> {
    const headers = this.link.modules.transport.headers();
    headers.set(HEADER_FIRST, String(message.first));
    if (message.last !== message.first) headers.set(HEADER_LAST, String(message.last));
    headers.set(HEADER_EVENT_ID, message.eventId);
    if (message.parts > 1) headers.set(HEADER_PART, `${message.part}/${message.parts}`);
    if (this.auth !== undefined) headers.set(HEADER_AUTH, eventTag(this.auth, this.subject, message));
    const ack = await this.link.js.publish(this.subject, message.data, {
      msgID: message.msgId,
      headers,
      expect: { lastSubjectSequence: this.#tail?.streamSeq ?? 0 },
    });
    const { first, last, eventId, part, parts } = message;
    return { first, last, eventId, part, parts, streamSeq: ack.seq };
  }

  async #loadTail(): Promise<SubjectTail | null> {
    const last = await this.link.jsm.streams.getMessage(this.stream, { last_by_subj: this.subject });
    if (last === null) return null;
    let position = positionOf(last.header);
    if (!this.check({ headers: last.header, data: last.data, seq: last.seq })) {
      // Forged (or not ours): the place to go on from is the last message a node wrote, wherever it is.
      position =
        (await lastAuthentic(this.link, this.stream, this.subject, this.check, last.seq)) ?? undefined;
    }
    // A message without our headers on our subject (written by something else): go on after it.
    return { ...(position ?? { first: 0, last: 0, eventId: "", part: 1, parts: 1 }), streamSeq: last.seq };
  }
}

/** Whether the subject already holds this event whole. */
function isStored(event: EncodedEvent, tail: SubjectTail | null): boolean {
  if (tail === null) return false;
  return tail.part === tail.parts ? event.sequence <= tail.last : event.sequence < tail.first;
}

/** The part to go on with when the subject ends in half of this very event (else 1). */
function resumePart(event: EncodedEvent, tail: SubjectTail | null, limit: number): number {
  if (tail === null || tail.part === tail.parts) return 1;
  const same = tail.first === event.sequence && tail.eventId === event.eventId;
  return same && tail.parts === Math.ceil(event.json.length / limit) ? tail.part + 1 : 1;
}

const always = () => true;

function isWrongLastSequence(error: unknown): boolean {
  return (error as Partial<JetStreamApiError> | null)?.code === WRONG_LAST_SEQUENCE;
}
