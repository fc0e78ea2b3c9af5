// What the cluster secret's tag costs per event (DESIGN.md §10): the HMAC a node computes over each message it
// publishes, and again over each message a reader takes from the stream, measured in this process on messages
// like the ones a busy Codex session writes (text deltas with their native record, in runs).
import { randomBytes } from "node:crypto";
import { eventTag, hasEventTag } from "../src/store/jetstream/event-auth.js";
import { encodeEvent, nextMessage } from "../src/store/jetstream/event-codec.js";
import { HEADER_AUTH, MessageAuth } from "../src/store/jetstream/message-auth.js";
import { sessionEvents } from "../test/cluster/support/events.js";

export interface HmacCost {
  eventBytes: number;
  runLength: number;
  /** ns per event when a message carries a run of `runLength` events. */
  runNs: number;
  /** ns for a message of one event. */
  singleNs: number;
  /** ns per event to check a run's tag, as every reader does. */
  checkNs: number;
}

const SUBJECT = "provider_runtime.events.ses_bench";

export function hmacCostPerEvent(runLength = 64, rounds = 2_000): HmacCost {
  const auth = new MessageAuth(randomBytes(32));
  const events = sessionEvents("ses_bench", runLength).map(encodeEvent);
  const run = nextMessage(events, 1024 * 1024);
  const single = nextMessage(events.slice(0, 1), 1024 * 1024);
  const time = (work: () => void, count: number) => {
    for (let i = 0; i < 200; i++) work();
    const start = process.hrtime.bigint();
    for (let i = 0; i < count; i++) work();
    return Number(process.hrtime.bigint() - start) / count;
  };
  const tag = eventTag(auth, SUBJECT, run);
  const headers = new Map<string, string>([
    ["Pr-Sequence", String(run.first)],
    ["Pr-Last-Sequence", String(run.last)],
    ["Pr-Event-Id", run.eventId],
    [HEADER_AUTH, tag],
  ]);
  const stored = { headers: { get: (key: string) => headers.get(key) ?? "" }, data: run.data, seq: 1 };
  if (!hasEventTag(auth, SUBJECT, stored)) throw new Error("bench: the tag does not check");
  return {
    eventBytes: Math.round(run.data.length / runLength),
    runLength,
    runNs: time(() => eventTag(auth, SUBJECT, run), rounds) / runLength,
    singleNs: time(() => eventTag(auth, SUBJECT, single), rounds * 10),
    checkNs: time(() => hasEventTag(auth, SUBJECT, stored), rounds) / runLength,
  };
}
