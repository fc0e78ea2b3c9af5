import type { RuntimeEvent } from "../contracts/events.js";
import { RemoteApiError, RemoteConnectionError, RemoteProtocolError } from "./errors.js";
import {
  backoffDelay,
  DEFAULT_RECONNECT,
  isRetryableStatus,
  type ReconnectPolicy,
  sleep,
} from "./reconnect.js";
import { readSseMessages } from "./sse-messages.js";
import { eventOfMessage } from "./stream-event.js";
import type { ApiTransport } from "./transport.js";

export interface FollowOptions {
  /** Deliver the events with a sequence above this (default 0: the whole stored stream, then live). */
  after?: number;
  /** Ends the iteration (it returns) and closes the connection. */
  signal?: AbortSignal;
  reconnect?: Partial<ReconnectPolicy>;
  /**
   * A connection silent for this long (the server sends a heartbeat every 15 s) is taken as dead and
   * reopened. Default 45 s.
   */
  idleTimeoutMs?: number;
  /** The longest SSE message accepted, in characters (default 64 Mi, the CLI's longest line). */
  maxMessageChars?: number;
}

/** What the owner of a follower decides. */
export interface FollowControl {
  /** At a delivered `session.exited` (once the host asks for the next event): true ends the iteration there. */
  endsAt(event: RuntimeEvent): Promise<boolean>;
  /** Called with every event just before it is delivered. */
  delivered?(event: RuntimeEvent): void;
}

const DEFAULT_IDLE_TIMEOUT_MS = 45_000;
const DEFAULT_MAX_MESSAGE_CHARS = 64 * 1024 * 1024;

/** A stream that broke off: the connection is reopened after the last delivered event. */
class StreamBroken extends Error {}

/**
 * A session's canonical events over SSE, each delivered once and in sequence order: the stored events after
 * `after`, then live ones. A dropped connection, a server restart or a silent connection is reopened with
 * `Last-Event-ID` (back-off per the policy); events the server repeats are skipped, a gap reopens the stream
 * from the last delivered event. Ends when `control.endsAt` says so, or on `signal`.
 */
export async function* followEvents(
  transport: ApiTransport,
  sessionId: string,
  options: FollowOptions,
  control: FollowControl,
): AsyncGenerator<RuntimeEvent, void, undefined> {
  const policy: ReconnectPolicy = { ...DEFAULT_RECONNECT, ...options.reconnect };
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const path = `/v1/sessions/${encodeURIComponent(sessionId)}/events`;
  const route = `GET ${path}`;
  const outer = options.signal;
  const aborted = () => outer?.aborted === true;
  const retry = new Retry(route, policy, outer, transport.url(path));
  let after = options.after ?? 0;
  while (!aborted()) {
    if (!(await retry.wait())) return;
    const connection = new AbortController();
    const abort = () => connection.abort();
    outer?.addEventListener("abort", abort, { once: true });
    let lastChunkAt = Date.now();
    let paused = false;
    const idleCheck = setInterval(
      () => {
        if (!paused && Date.now() - lastChunkAt > idleTimeoutMs) connection.abort();
      },
      Math.max(10, Math.floor(idleTimeoutMs / 4)),
    );
    try {
      const headers: Record<string, string> = after > 0 ? { "last-event-id": String(after) } : {};
      const response = await transport.stream(`${path}?after=${after}`, headers, connection.signal);
      lastChunkAt = Date.now();
      const messages = readSseMessages(response.body as ReadableStream<Uint8Array>, {
        route,
        maxMessageChars: options.maxMessageChars ?? DEFAULT_MAX_MESSAGE_CHARS,
        onChunk: () => {
          lastChunkAt = Date.now();
        },
        onRetry: (ms) => retry.serverSays(ms),
      });
      for await (const message of messages) {
        const event = eventOfMessage(route, sessionId, message);
        if (event.sequence <= after) continue;
        if (event.sequence !== after + 1)
          throw new StreamBroken(`a sequence gap: ${event.sequence} after ${after}`);
        after = event.sequence;
        retry.succeeded();
        control.delivered?.(event);
        paused = true;
        yield event;
        if (event.type === "session.exited" && (await retry.decide(() => control.endsAt(event)))) return;
        paused = false;
        lastChunkAt = Date.now();
      }
      retry.failed(new StreamBroken("the server closed the stream"));
    } catch (error) {
      if (aborted()) return;
      if (error instanceof RemoteProtocolError || error instanceof RemoteConnectionError) throw error;
      if (error instanceof RemoteApiError && !isRetryableStatus(error.status)) throw error;
      retry.failed(error);
    } finally {
      clearInterval(idleCheck);
      outer?.removeEventListener("abort", abort);
      connection.abort();
    }
  }
}

/** Consecutive failures, the wait before the next attempt, and giving up. */
class Retry {
  #failures = 0;
  #lastError: unknown;
  #serverRetryMs: number | undefined;
  /** When the current run of failures began. */
  #downSince = 0;

  constructor(
    readonly route: string,
    readonly policy: ReconnectPolicy,
    readonly signal: AbortSignal | undefined,
    readonly url: string,
  ) {}

  succeeded(): void {
    this.#failures = 0;
  }

  failed(error: unknown): void {
    if (this.#failures === 0) this.#downSince = Date.now();
    this.#failures++;
    this.#lastError = error;
  }

  serverSays(ms: number): void {
    this.#serverRetryMs = ms;
  }

  /** Before an attempt: waits out the back-off; throws when the policy gives up; false when aborted. */
  async wait(): Promise<boolean> {
    if (this.#failures === 0) return true;
    const left = (this.policy.giveUpAfterMs ?? Number.POSITIVE_INFINITY) - (Date.now() - this.#downSince);
    if (this.#failures >= this.policy.maxAttempts || left <= 0)
      throw new RemoteConnectionError(this.route, this.#failures, this.#lastError, this.url);
    const delay = Math.min(left, backoffDelay(this.policy, this.#failures, this.#serverRetryMs));
    await sleep(delay, this.signal);
    return this.signal?.aborted !== true;
  }

  /**
   * Runs a decision that may call the server, with the same policy: retried while it fails with a connection
   * error or a retryable status. Aborted: true (the iteration ends).
   */
  async decide(task: () => Promise<boolean>): Promise<boolean> {
    const before = this.#failures;
    this.#failures = 0;
    try {
      while (true) {
        if (!(await this.wait())) return true;
        try {
          return await task();
        } catch (error) {
          if (error instanceof RemoteApiError && !isRetryableStatus(error.status)) throw error;
          if (error instanceof RemoteProtocolError) throw error;
          this.failed(error);
        }
      }
    } finally {
      this.#failures = before;
    }
  }
}
