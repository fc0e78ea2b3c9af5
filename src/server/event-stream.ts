import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { RuntimeEvent } from "../contracts/events.js";
import type { SessionStore } from "../store/types.js";

/**
 * Text held for one subscriber before the loop waits for the socket to take it: bounds a slow reader's memory
 * (the store's follow then holds the rest, bounded too, or reads it from the file).
 */
const MAX_PENDING_CHARS = 256 * 1024;

/**
 * Each live event's SSE message, written once for all its subscribers: the store hands every follower of a
 * session the same event objects, and serializing an event (its native record included) is the largest part of
 * a delivery's cost. Weak: an event's text goes when the event does.
 */
const messages = new WeakMap<RuntimeEvent, string>();

/** One event as an SSE message: `id:` is its sequence (a client resumes with Last-Event-ID). */
function sseMessage(event: RuntimeEvent): string {
  let message = messages.get(event);
  if (message === undefined) {
    message = `id: ${event.sequence}\ndata: ${JSON.stringify(event)}\n\n`;
    messages.set(event, message);
  }
  return message;
}

/**
 * The SSE form of a session's events: every stored event after `after`, then each new one as it is stored, as
 * `id: <sequence>` + `data: <event JSON>`, with a heartbeat comment every `heartbeatMs` so proxies and clients
 * can tell a quiet session from a dead connection. Ends when the client goes away.
 *
 * What the follow has ready at once (a commit's batch, a page of stored events) goes out as one write: one
 * chunk through the stream and one socket write per batch, not per event. The flush waits for the next turn of
 * the event loop (setImmediate), by which time the follow has yielded everything it buffered.
 */
export function streamEvents(
  c: Context,
  store: SessionStore,
  sessionId: string,
  after: number,
  heartbeatMs: number,
): Response {
  return streamSSE(c, async (stream) => {
    const abort = new AbortController();
    stream.onAbort(() => abort.abort());
    const heartbeat = setInterval(() => {
      void stream.write(": heartbeat\n\n").catch(() => abort.abort());
    }, heartbeatMs);
    let pending = "";
    let flushing: Promise<void> | undefined;
    const flush = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      try {
        while (pending.length > 0 && !stream.aborted && !stream.closed) {
          const chunk = pending;
          pending = "";
          await stream.write(chunk);
        }
      } catch {
        abort.abort();
      } finally {
        flushing = undefined;
      }
    };
    try {
      // The headers go out now, before the first event: a client of a quiet session knows it is connected.
      await stream.write(": connected\n\n");
      for await (const event of store.follow(sessionId, after, abort.signal)) {
        if (stream.aborted || stream.closed) break;
        pending += sseMessage(event);
        flushing ??= flush();
        if (pending.length >= MAX_PENDING_CHARS) await flushing;
      }
      await flushing;
    } finally {
      clearInterval(heartbeat);
      abort.abort();
    }
  });
}
