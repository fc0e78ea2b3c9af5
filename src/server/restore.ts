import { wallClockIso } from "../kit/wall-clock.js";
import type { SessionRecord, SessionStore } from "../store/types.js";
import { SessionSummary } from "./session-summary.js";
import { StreamCloser } from "./stream-closer.js";

const PAGE = 1_000;
export const CRASH_MESSAGE = "the server stopped without closing the session";

/**
 * At start: every live session whose stored stream a crash left open is closed as a driver would have closed it
 * (open items failed, requests cancelled, turns failed, then `session.exited`), numbered on from its last stored
 * event, and its registry entry marked exited, so every stored stream passes `verify` and a new turn resumes the
 * agent. Returns the ids of the sessions it closed.
 */
export async function closeAbandonedSessions(
  store: SessionStore,
  now: () => string = wallClockIso,
): Promise<string[]> {
  const closed: string[] = [];
  for (const record of await store.listSessions()) {
    if (record.origin !== "live") continue;
    if (await closeStoredStream(store, record, CRASH_MESSAGE, now())) closed.push(record.id);
  }
  return closed;
}

/**
 * Closes one session's stored stream if it is open (runtime.error `transport_error` with `message`, open items,
 * requests and turns ended, `session.exited`) and marks its registry entry exited; true when it closed anything.
 */
export async function closeStoredStream(
  store: SessionStore,
  record: SessionRecord,
  message: string,
  now: string,
): Promise<boolean> {
  const closer = new StreamCloser();
  const summary = new SessionSummary(record);
  let after = 0;
  for (;;) {
    const page = await store.readEvents(record.id, after, PAGE);
    for (const event of page) {
      closer.observe(event);
      summary.observe(event);
    }
    const tail = page.at(-1);
    if (tail === undefined) break;
    after = tail.sequence;
  }
  const closing = closer.close(message, now);
  if (closing.length > 0) {
    await store.append(record.id, closing);
    for (const event of closing) summary.observe(event);
  }
  const patch = summary.patch(record.native);
  // A session that crashed before its first event has nothing to close, but no agent either.
  patch.exited = true;
  if (after === 0 && !record.exited) patch.state = "stopped";
  if (closing.length > 0 || !record.exited || record.lastSequence !== patch.lastSequence) {
    await store.updateSession(record.id, patch);
  }
  return closing.length > 0;
}
