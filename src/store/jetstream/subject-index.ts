import type { MsgRequest, StoredMsg } from "@nats-io/jetstream";
import { positionOf } from "./event-codec.js";
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
 */
export async function findStart(
  link: NatsLink,
  stream: string,
  subject: string,
  after: number,
): Promise<{ start: number; stored: boolean }> {
  const jsm = link.jsm;
  // The stream's end before the subject's tail: if the subject has no message yet, none it gets later is before it.
  const end = (await jsm.streams.info(stream)).state.last_seq;
  const tail = await jsm.streams.getMessage(stream, { last_by_subj: subject });
  if (tail === null) return { start: end + 1, stored: false };
  if (sequenceOf(tail) <= after) return { start: tail.seq + 1, stored: false };
  if (after <= 0) return { start: 1, stored: true };
  const next = (seq: number) =>
    jsm.streams.getMessage(stream, {
      next_by_subj: subject,
      seq,
    } as unknown as MsgRequest) as Promise<StoredMsg | null>;
  // Invariants: no message of the subject before `lo` is past `after`; `found` is one that is, and none of the
  // subject's messages between `hi` and `found` is.
  let lo = 1;
  let hi = tail.seq;
  let found = tail.seq;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const message = await next(mid);
    if (message !== null && sequenceOf(message) <= after) {
      lo = message.seq + 1;
    } else {
      if (message !== null) found = Math.min(found, message.seq);
      hi = mid - 1;
    }
  }
  return { start: found, stored: true };
}

/** The last canonical sequence a message holds. */
function sequenceOf(message: StoredMsg): number {
  return positionOf(message.header)?.last ?? 0;
}
