import type { RuntimeEvent } from "../contracts/events.js";
import type { SessionStore } from "../store/types.js";
import { afterMicrotasks } from "./after-microtasks.js";
import { withoutRaw } from "./without-raw.js";

/**
 * Text held for one subscriber before the loop waits for the socket to take it: bounds a slow reader's memory
 * (the store's follow then holds the rest, bounded too, or reads it from the file).
 */
const MAX_PENDING_CHARS = 256 * 1024;

/** Chunks the body holds before the follow waits for the socket (the server's reader takes one at a time). */
const QUEUED_CHUNKS = 4;

/**
 * Each live event's SSE message, written once for all its subscribers: the store hands every follower of a
 * session the same event objects, and serializing an event (its native record included) is the largest part of
 * a delivery's cost. Weak: an event's text goes when the event does.
 */
const messages = new WeakMap<RuntimeEvent, string>();
/** The same without the native record, for the subscribers that asked `raw=0`. */
const rawlessMessages = new WeakMap<RuntimeEvent, string>();

/** One event as an SSE message: `id:` is its sequence (a client resumes with Last-Event-ID). */
function sseMessage(event: RuntimeEvent, withRaw: boolean): string {
  const cache = withRaw ? messages : rawlessMessages;
  let message = cache.get(event);
  if (message === undefined) {
    message = `id: ${event.sequence}\ndata: ${JSON.stringify(withRaw ? event : withoutRaw(event))}\n\n`;
    cache.set(event, message);
  }
  return message;
}

/**
 * The SSE form of a session's events: every stored event after `after`, then each new one as it is stored, as
 * `id: <sequence>` + `data: <event JSON>`, with a heartbeat comment every `heartbeatMs` so proxies and clients
 * can tell a quiet session from a dead connection. Ends when the client goes away.
 *
 * The body is a stream of strings that @hono/node-server writes to the socket as they are (one `write` each):
 * no TransformStream and no UTF-8 encoding step in between, which with hundreds of subscribers cost a tenth of
 * the server's time. What the follow has ready at once (a commit's batch, a page of stored events) is one chunk:
 * the flush waits for the microtasks to drain (afterMicrotasks), by which time the follow has yielded everything
 * it buffered; a wait for the loop's next turn ran the other sessions' agent output first and held up the tail of
 * the deliveries. When the socket does not take its chunks, the follow waits.
 */
export function streamEvents(
  store: SessionStore,
  sessionId: string,
  after: number,
  heartbeatMs: number,
  withRaw = true,
): Response {
  const body = sseBody(store, sessionId, after, heartbeatMs, withRaw);
  // @hono/node-server writes a chunk with `response.write(chunk)`, which takes strings
  return new Response(body as unknown as ReadableStream<Uint8Array>, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    },
  });
}

function sseBody(
  store: SessionStore,
  sessionId: string,
  after: number,
  heartbeatMs: number,
  withRaw: boolean,
): ReadableStream<string> {
  const abort = new AbortController();
  /** Settles when the socket's reader takes a chunk again: every sender waiting for room shares it. */
  let room: { made: Promise<void>; resolve: () => void } | undefined;
  const roomMade = () => {
    const waiting = room;
    room = undefined;
    waiting?.resolve();
  };
  return new ReadableStream<string>(
    {
      start(controller) {
        const send = (text: string): Promise<void> | undefined => {
          if (abort.signal.aborted) return undefined;
          controller.enqueue(text);
          if ((controller.desiredSize ?? 1) > 0) return undefined;
          if (room === undefined) {
            let resolve = () => {};
            const made = new Promise<void>((done) => {
              resolve = done;
            });
            room = { made, resolve };
          }
          return room.made;
        };
        // a follow that throws (the store closed under it) ends the stream like a store that closed
        void pump(store, sessionId, after, heartbeatMs, withRaw, abort.signal, send)
          .catch(() => undefined)
          .finally(() => {
            if (abort.signal.aborted) return;
            abort.abort();
            controller.close();
          });
      },
      pull: roomMade,
      cancel() {
        abort.abort();
        roomMade();
      },
    },
    { highWaterMark: QUEUED_CHUNKS },
  );
}

async function pump(
  store: SessionStore,
  sessionId: string,
  after: number,
  heartbeatMs: number,
  withRaw: boolean,
  signal: AbortSignal,
  send: (text: string) => Promise<void> | undefined,
): Promise<void> {
  // The heartbeat waits for nothing: a socket with no room for it has data to take anyway.
  const heartbeat = setInterval(() => void send(": heartbeat\n\n"), heartbeatMs);
  let pending = "";
  let flushing: Promise<void> | undefined;
  const flush = async () => {
    await afterMicrotasks();
    try {
      while (pending.length > 0 && !signal.aborted) {
        const chunk = pending;
        pending = "";
        await send(chunk);
      }
    } finally {
      flushing = undefined;
    }
  };
  try {
    // The headers go out now, before the first event: a client of a quiet session knows it is connected.
    await send(": connected\n\n");
    for await (const event of store.follow(sessionId, after, signal)) {
      if (signal.aborted) break;
      pending += sseMessage(event, withRaw);
      flushing ??= flush();
      if (pending.length >= MAX_PENDING_CHARS) await flushing;
    }
    await flushing;
  } finally {
    clearInterval(heartbeat);
  }
}
