import type { Consumer, ConsumerMessages } from "@nats-io/jetstream";
import type { RuntimeEvent } from "../../contracts/events.js";
import type { MessageCheck } from "./event-auth.js";
import { EventAssembler } from "./event-codec.js";
import type { NatsLink } from "./nats-link.js";
import { findStart } from "./subject-index.js";

/** Messages a reader pulls per request: what a slow reader holds in memory at most. */
const BATCH = 256;
/** How long one live pull waits for new messages before it asks again. */
const LIVE_WAIT_MS = 10_000;

export interface SubjectAddress {
  stream: string;
  subject: string;
  /** Which messages are ours: one that fails (forged) is skipped, never assembled into events. */
  check: MessageCheck;
  /** The stream's replicas: above 1, readers' consumers are replicated as much (see `consumerAt`). */
  replicas?: number;
}

/**
 * Up to `limit` events of a subject with canonical sequence > `after`, as stored now (an event whose parts are
 * still being written is left for the next read).
 */
export async function readSubject(
  link: NatsLink,
  address: SubjectAddress,
  after: number,
  limit: number,
): Promise<RuntimeEvent[]> {
  // Retried: a NATS cluster that just lost a server times requests out until it has chosen new leaders.
  const { start, stored } = await link.retry(() =>
    findStart(link, address.stream, address.subject, after, address.check),
  );
  const events: RuntimeEvent[] = [];
  if (!stored || limit <= 0) return events;
  const consumer = await link.retry(() => consumerAt(link, address, start));
  const assembler = new EventAssembler();
  let last = after;
  try {
    for (;;) {
      const batch = await consumer.fetch({ max_messages: BATCH, expires: 5_000 });
      let pending = 1;
      let seen = 0;
      for await (const message of batch) {
        seen++;
        pending = message.info.pending;
        const ours = address.check({ headers: message.headers, data: message.data, seq: message.seq });
        for (const event of ours ? assembler.push(message.headers, message.data) : []) {
          // Strictly increasing: whatever a split brain left in the log, a reader never sees a sequence twice.
          if (event.sequence <= last || events.length >= limit) continue;
          events.push(event);
          last = event.sequence;
        }
        if (events.length >= limit || pending === 0) {
          batch.stop();
          break;
        }
      }
      if (events.length >= limit || pending === 0 || seen === 0) return events;
    }
  } finally {
    await consumer.delete().catch(() => {});
  }
}

/**
 * Every event of a subject with canonical sequence > `after`: the stored ones, then live, each once, until
 * `signal` aborts. A consumer lost to an outage is made again from the last message read.
 */
export async function* followSubject(
  link: NatsLink,
  address: SubjectAddress,
  after: number,
  signal: AbortSignal,
): AsyncGenerator<RuntimeEvent> {
  let last = after;
  let next: number | undefined;
  let batch: ConsumerMessages | undefined;
  const stop = () => batch?.stop();
  signal.addEventListener("abort", stop, { once: true });
  try {
    while (!signal.aborted) {
      let consumer: Consumer;
      try {
        next ??= (
          await link.retry(() => findStart(link, address.stream, address.subject, last, address.check))
        ).start;
        consumer = await link.retry(() => consumerAt(link, address, next ?? 1));
      } catch (error) {
        if (link.nc.isClosed()) return;
        throw error;
      }
      const assembler = new EventAssembler();
      // Where to come back to if the consumer is lost: the first part of the event being assembled.
      let resumeAt = next;
      try {
        while (!signal.aborted) {
          batch = await consumer.fetch({ max_messages: BATCH, expires: LIVE_WAIT_MS });
          if (signal.aborted) batch.stop();
          for await (const message of batch) {
            if (!address.check({ headers: message.headers, data: message.data, seq: message.seq })) continue;
            const events = assembler.push(message.headers, message.data);
            if (events.length === 0) continue;
            resumeAt = message.seq + 1;
            for (const event of events) {
              if (event.sequence <= last) continue;
              last = event.sequence;
              yield event;
              if (signal.aborted) break;
            }
            if (signal.aborted) break;
          }
        }
      } catch {
        if (!signal.aborted) await Promise.all([link.whenUp(), delay(100)]);
      } finally {
        next = resumeAt;
        await consumer.delete().catch(() => {});
      }
    }
  } finally {
    signal.removeEventListener("abort", stop);
    batch?.stop();
  }
}

/**
 * A consumer of one subject from stream sequence `start`. On one server, an ordered consumer (the client makes and
 * remakes it). On a replicated stream, an ephemeral consumer with as many replicas: an R1 consumer is placed on any
 * of the stream's peers, an offline one included, and then never answers — after one of three servers died, half
 * of all consumers made timed out until the server came back (nats-server 2.9.10).
 */
async function consumerAt(link: NatsLink, address: SubjectAddress, start: number): Promise<Consumer> {
  const { AckPolicy, DeliverPolicy } = link.modules.jetstream;
  const replicas = address.replicas ?? 1;
  if (replicas > 1) {
    const info = await link.jsm.consumers.add(address.stream, {
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: start,
      filter_subject: address.subject,
      num_replicas: replicas,
      // A reader that dies leaves its consumer behind: the server removes it after this long unused (ns).
      inactive_threshold: 60 * 1_000_000_000,
    });
    return link.js.consumers.get(address.stream, info.name);
  }
  return link.js.consumers.get(address.stream, {
    // One subject as `filter_subject`: a list (`filter_subjects`) needs nats-server 2.10.
    filter_subjects: address.subject,
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: start,
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
