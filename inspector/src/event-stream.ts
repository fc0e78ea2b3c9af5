import { createParser } from "eventsource-parser";
import type { RuntimeEvent } from "../../src/contracts/events.js";

export type StreamStatus = "connecting" | "live" | "retrying" | "unauthorized";

export interface FollowOptions {
  url: (after: number) => string;
  headers: (extra: Record<string, string>) => Record<string, string>;
  /** The last sequence the page holds: each (re)connection asks for the events after it. */
  lastSequence: () => number;
  onEvent: (event: RuntimeEvent) => void;
  onStatus: (status: StreamStatus) => void;
  /** A `data:` that is not an event (counted by the caller, never fatal). */
  onMalformed?: (data: string) => void;
}

const FIRST_RETRY_MS = 300;
const MAX_RETRY_MS = 5_000;
/** The server sends a heartbeat every 15 s: silence this long means the connection is dead. */
const SILENCE_MS = 40_000;

/**
 * Follows a session's events over SSE read with fetch (so the token can be a header; EventSource cannot set
 * one). After a drop, a server restart or a silent connection it reconnects with `after` and `Last-Event-ID`
 * set to the last sequence seen; the caller drops anything at or below it. Returns a function that stops it.
 */
export function followEvents(options: FollowOptions): () => void {
  const stopper = new AbortController();
  void run(options, stopper.signal);
  return () => stopper.abort();
}

async function run(options: FollowOptions, stopped: AbortSignal): Promise<void> {
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
      const after = options.lastSequence();
      heard();
      const response = await fetch(options.url(after), {
        headers: options.headers({ Accept: "text/event-stream", "Last-Event-ID": String(after) }),
        signal: connection.signal,
        cache: "no-store",
      });
      if (response.status === 401) {
        options.onStatus("unauthorized");
        return;
      }
      if (!response.ok || response.body === null) throw new Error(`events: ${response.status}`);
      options.onStatus("live");
      const parser = createParser({
        onEvent: (message) => {
          let event: unknown;
          try {
            event = JSON.parse(message.data);
          } catch {
            options.onMalformed?.(message.data);
            return;
          }
          if (typeof event === "object" && event !== null && "type" in event) {
            options.onEvent(event as RuntimeEvent);
            retryMs = FIRST_RETRY_MS;
          } else options.onMalformed?.(message.data);
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
