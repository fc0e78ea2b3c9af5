import { createParser } from "eventsource-parser";
import type { SessionSummary } from "../../src/api/schemas.js";
import type { StreamStatus } from "./event-stream.js";

export interface FollowSessionsOptions {
  url: string;
  headers: (extra: Record<string, string>) => Record<string, string>;
  /** The whole list (at each connection: what changed while disconnected is in it). */
  onSnapshot: (sessions: SessionSummary[]) => void;
  onSession: (session: SessionSummary) => void;
  onRemoved: (id: string) => void;
  onStatus: (status: StreamStatus) => void;
}

const FIRST_RETRY_MS = 300;
const MAX_RETRY_MS = 5_000;
/** The server sends a heartbeat every 15 s: silence this long means the connection is dead. */
const SILENCE_MS = 40_000;

const isSummary = (value: unknown): value is SessionSummary =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { id?: unknown }).id === "string" &&
  typeof (value as { state?: unknown }).state === "string";

/**
 * Follows the server's session list over SSE read with fetch (the token stays a header): a snapshot at each
 * connection, then each session's new summary as it changes. Reconnects after a drop. Returns a stop function.
 */
export function followSessions(options: FollowSessionsOptions): () => void {
  const stopper = new AbortController();
  void run(options, stopper.signal);
  return () => stopper.abort();
}

function dispatch(options: FollowSessionsOptions, event: string | undefined, data: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return false;
  }
  if (event === "snapshot") {
    const sessions = (parsed as { sessions?: unknown }).sessions;
    if (!Array.isArray(sessions)) return false;
    options.onSnapshot(sessions.filter(isSummary));
  } else if (event === "session" && isSummary(parsed)) {
    options.onSession(parsed);
  } else if (event === "removed" && typeof (parsed as { id?: unknown }).id === "string") {
    options.onRemoved((parsed as { id: string }).id);
  } else return false;
  return true;
}

async function run(options: FollowSessionsOptions, stopped: AbortSignal): Promise<void> {
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
      const response = await fetch(options.url, {
        headers: options.headers({ Accept: "text/event-stream" }),
        signal: connection.signal,
        cache: "no-store",
      });
      if (response.status === 401) {
        options.onStatus("unauthorized");
        return;
      }
      if (!response.ok || response.body === null) throw new Error(`sessions: ${response.status}`);
      options.onStatus("live");
      const parser = createParser({
        onEvent: (message) => {
          if (dispatch(options, message.event, message.data)) retryMs = FIRST_RETRY_MS;
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
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, retryMs);
      function done() {
        clearTimeout(timer);
        stopped.removeEventListener("abort", done);
        resolve();
      }
      stopped.addEventListener("abort", done, { once: true });
    });
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  }
}
