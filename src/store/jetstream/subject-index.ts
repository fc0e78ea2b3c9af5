import type { MsgRequest, StoredMsg } from "@nats-io/jetstream";
import type { MessageCheck } from "./event-auth.js";
import { positionOf, type StoredPosition } from "./event-codec.js";
import type { NatsLink } from "./nats-link.js";

/**
 * Where, in the deployment's stream, a session's events after canonical sequence `after` begin: the stream
 * sequence to start a consumer at, or `undefined` when none is stored yet (`live` is then where later ones will
 * be).
 *
 * No index is kept: a session's messages carry their canonical sequences in headers and are in canonical order in
 * the stream, so the first one past `after` is found by a binary search over stream sequences with the message
 * API's `next_by_subj` (the first message of a subject at or after a stream sequence): O(log n) small requests
 * (about 20 for a million messages), nothing to keep consistent with the log, and correct after any crash. The
 * common cases, from the start and from the end (a client reconnecting at the tail), cost one request.
 *
 * Only messages that pass `check` count (a forged message's headers could say anything): a probe that lands on one
 * moves on to the subject's next message, so forged messages cost a request each, never a wrong answer.
 */
export async function findStart(
  link: NatsLink,
  stream: string,
  subject: string,
  after: number,
  check: MessageCheck,
): Promise<{ start: number; stored: boolean }> {
  const jsm = link.jsm;
  // The stream's end before the subject's tail: if the subject has no message yet, none it gets later is before it.
  const end = (await jsm.streams.info(stream)).state.last_seq;
  const tail = await jsm.streams.getMessage(stream, { last_by_subj: subject });
  if (tail === null) return { start: end + 1, stored: false };
  const tailIsOurs = isOurs(tail, check);
  if (tailIsOurs && sequenceOf(tail) <= after) return { start: tail.seq + 1, stored: false };
  if (after <= 0) return { start: 1, stored: true };
  const next = async (seq: number): Promise<StoredMsg | null> => {
    for (let from = seq; ; ) {
      const message = (await jsm.streams.getMessage(stream, {
        next_by_subj: subject,
        seq: from,
      } as unknown as MsgRequest)) as StoredMsg | null;
      if (message === null || isOurs(message, check)) return message;
      from = message.seq + 1;
    }
  };
  // Invariants: no message of the subject before `lo` is past `after`; `found` is one that is, and none of the
  // subject's messages between `hi` and `found` is.
  let lo = 1;
  let hi = tail.seq;
  let found = tailIsOurs ? tail.seq : undefined;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const message = await next(mid);
    if (message !== null && sequenceOf(message) <= after) {
      lo = message.seq + 1;
    } else {
      if (message !== null) found = Math.min(found ?? message.seq, message.seq);
      hi = mid - 1;
    }
  }
  return found === undefined ? { start: tail.seq + 1, stored: false } : { start: found, stored: true };
}

/**
 * The place of the last message of a subject that passes `check`, up to stream sequence `until`: read from the
 * start, as there is no asking for a subject's previous message. Only when the subject ends in a forged message.
 */
export async function lastAuthentic(
  link: NatsLink,
  stream: string,
  subject: string,
  check: MessageCheck,
  until: number,
): Promise<StoredPosition | null> {
  const consumer = await link.js.consumers.get(stream, {
    filter_subjects: subject,
    deliver_policy: link.modules.jetstream.DeliverPolicy.All,
  });
  let found: StoredPosition | null = null;
  try {
    for (;;) {
      const batch = await consumer.fetch({ max_messages: 256, expires: 5_000 });
      let seen = 0;
      let pending = 0;
      let reached = false;
      for await (const message of batch) {
        seen++;
        pending = message.info.pending;
        if (message.seq <= until && check({ headers: message.headers, data: message.data, seq: message.seq }))
          found = positionOf(message.headers) ?? found;
        reached = message.seq >= until;
        if (pending === 0 || reached) {
          batch.stop();
          break;
        }
      }
      if (seen === 0 || pending === 0 || reached) return found;
    }
  } finally {
    await consumer.delete().catch(() => {});
  }
}

function isOurs(message: StoredMsg, check: MessageCheck): boolean {
  return check({ headers: message.header, data: message.data, seq: message.seq });
}

/** The last canonical sequence a message holds. */
function sequenceOf(message: StoredMsg): number {
  return positionOf(message.header)?.last ?? 0;
}
