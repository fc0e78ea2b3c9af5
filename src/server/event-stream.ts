import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { SessionStore } from "../store/types.js";

/**
 * The SSE form of a session's events: every stored event after `after`, then each new one as it is stored, as
 * `id: <sequence>` + `data: <event JSON>`, with a heartbeat comment every `heartbeatMs` so proxies and clients
 * can tell a quiet session from a dead connection. Ends when the client goes away.
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
    try {
      // The headers go out now, before the first event: a client of a quiet session knows it is connected.
      await stream.write(": connected\n\n");
      for await (const event of store.follow(sessionId, after, abort.signal)) {
        if (stream.aborted || stream.closed) break;
        await stream.writeSSE({ id: String(event.sequence), data: JSON.stringify(event) });
      }
    } finally {
      clearInterval(heartbeat);
      abort.abort();
    }
  });
}
