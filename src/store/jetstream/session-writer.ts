import type { JetStreamApiError } from "@nats-io/jetstream";
import type { AppendBuffer } from "./append-buffer.js";
import {
  type EncodedEvent,
  type EventPart,
  HEADER_EVENT_ID,
  HEADER_PART,
  HEADER_SEQUENCE,
  positionOf,
  type StoredPosition,
} from "./event-codec.js";
import type { NatsLink } from "./nats-link.js";

/** JetStream's answer to a publish whose `Nats-Expected-Last-Subject-Sequence` is not the subject's last. */
const WRONG_LAST_SEQUENCE = 10071;

/** The last message of a session's subject: where the next publish goes on from. */
interface SubjectTail extends StoredPosition {
  streamSeq: number;
}

interface Pending {
  event: EncodedEvent;
  stored: () => void;
}

/**
 * Publishes one session's events, in order, one message in flight at a time, retrying each until JetStream has
 * it. Exactly once in the stream, whatever the retries:
 * - every message carries its event id as `Nats-Msg-Id`, so a retry inside the duplicate window is acknowledged
 *   as a duplicate, not stored again;
 * - every message expects the subject's last stream sequence to be the one this writer last saw
 *   (`Nats-Expected-Last-Subject-Sequence`), so a retry after the window, or a write by another node, is refused;
 *   the writer then reloads the subject's last message and skips what is already there (by canonical sequence).
 */
export class SessionWriter {
  readonly #queue: Pending[] = [];
  #tail: SubjectTail | null | undefined;
  #running = false;
  #idle: Array<() => void> = [];

  constructor(
    readonly subject: string,
    readonly stream: string,
    readonly link: NatsLink,
    readonly buffer: AppendBuffer,
  ) {}

  get idle(): boolean {
    return !this.#running && this.#queue.length === 0;
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
      while (this.#queue.length > 0) {
        const head = this.#queue[0];
        if (head === undefined) break;
        await this.#store(head.event);
        this.#queue.shift();
        this.buffer.release(1, head.event.bytes);
        head.stored();
      }
    } catch {
      // Only a closed connection ends the loop; what is queued stays counted in the buffer, and close() reports it.
    } finally {
      this.#running = false;
      if (this.#queue.length === 0) for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  async #store(event: EncodedEvent): Promise<void> {
    for (;;) {
      // Every error but a refused expectation is retried: an event is never given up (health shows the error).
      if (this.#tail === undefined) this.#tail = await this.link.retry(() => this.#loadTail(), always);
      const from = firstMissingPart(event, this.#tail);
      if (from > event.parts.length) return;
      let reload = false;
      for (const part of event.parts.slice(from - 1)) {
        const tail = await this.link
          .retry(
            () => this.#publish(event, part),
            (error) => !isWrongLastSequence(error),
          )
          .catch((error: unknown) => {
            if (isWrongLastSequence(error)) return undefined;
            throw error;
          });
        if (tail === undefined) {
          reload = true;
          break;
        }
        this.#tail = tail;
      }
      if (!reload) return;
      this.#tail = undefined;
    }
  }

  async #publish(event: EncodedEvent, part: EventPart): Promise<SubjectTail> {
    const headers = this.link.modules.transport.headers();
    headers.set(HEADER_SEQUENCE, String(event.sequence));
    headers.set(HEADER_EVENT_ID, event.eventId);
    if (part.parts > 1) headers.set(HEADER_PART, `${part.part}/${part.parts}`);
    const ack = await this.link.js.publish(this.subject, part.data, {
      msgID: part.msgId,
      headers,
      expect: { lastSubjectSequence: this.#tail?.streamSeq ?? 0 },
    });
    return {
      sequence: event.sequence,
      eventId: event.eventId,
      part: part.part,
      parts: part.parts,
      streamSeq: ack.seq,
    };
  }

  async #loadTail(): Promise<SubjectTail | null> {
    const last = await this.link.jsm.streams.getMessage(this.stream, { last_by_subj: this.subject });
    if (last === null) return null;
    const position = positionOf(last.header);
    // A message without our headers on our subject (written by something else): go on after it.
    return { ...(position ?? { sequence: 0, eventId: "", part: 1, parts: 1 }), streamSeq: last.seq };
  }
}

/** The first part of `event` the subject does not hold yet (parts.length + 1: none is missing). */
function firstMissingPart(event: EncodedEvent, tail: SubjectTail | null): number {
  const done = event.parts.length + 1;
  if (tail === null || event.sequence > tail.sequence) return 1;
  if (event.sequence < tail.sequence) return done;
  if (tail.part === tail.parts) return done; // an event with this sequence is stored whole
  // Half of an event with this sequence: go on with it if it is this one, else start over (readers drop the half).
  return tail.eventId === event.eventId && tail.parts === event.parts.length ? tail.part + 1 : 1;
}

const always = () => true;

function isWrongLastSequence(error: unknown): boolean {
  return (error as Partial<JetStreamApiError> | null)?.code === WRONG_LAST_SEQUENCE;
}
