import { createParser } from "eventsource-parser";

export type StreamStatus = "connecting" | "live" | "retrying" | "unauthorized";

export interface SseFollowOptions {
  /** What each (re)connection asks for: the URL and the headers (the token stays a header). */
  request: () => { url: string; headers: Record<string, string> };
  onStatus: (status: StreamStatus) => void;
  /** One SSE message; true when it was understood, which starts the retry delay over. */
  onMessage: (event: string | undefined, data: string) => boolean;
}

const FIRST_RETRY_MS = 300;
const MAX_RETRY_MS = 5_000;
/** The server sends a heartbeat every 15 s: silence this long means the connection is dead. */
const SILENCE_MS = 40_000;

/**
 * Follows an SSE route read with fetch (EventSource cannot send a token header): after a drop, a refusal or a
 * silent connection it reconnects with a growing delay, asking `request()` anew. A 401 ends it. Returns a stop
 * function.
 */
export function followSse(options: SseFollowOptions): () => void {
  const stopper = new AbortController();
  void run(options, stopper.signal);
  return () => stopper.abort();
}

async function run(options: SseFollowOptions, stopped: AbortSignal): Promise<void> {
  let retryMs = FIRST_RETRY_MS;
  while (!stopped.aborted) {
    const connection = new AbortController();
    const abort = () => connection.abort();
    stopped.addEventListener("abort", abort, { once: true });
    let silence: ReturnType<typeof setTimeout> | undefined;
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(abort, SILENCE_MS);
    };
    try {
      options.onStatus("connecting");
      heard();
      const { url, headers } = options.request();
      const response = await fetch(url, { headers, signal: connection.signal, cache: "no-store" });
      if (response.status === 401) {
        options.onStatus("unauthorized");
        return;
      }
      if (!response.ok || response.body === null) throw new Error(`${url}: ${response.status}`);
      options.onStatus("live");
      const parser = createParser({
        onEvent: (message) => {
          if (options.onMessage(message.event, message.data)) retryMs = FIRST_RETRY_MS;
        },
        onComment: heard,
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        heard();
        parser.feed(value);
      }
    } catch {
      // a dropped or refused connection: retried below
    } finally {
      clearTimeout(silence);
      stopped.removeEventListener("abort", abort);
    }
    if (stopped.aborted) return;
    options.onStatus("retrying");
    await sleep(retryMs, stopped);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
