/** How a follower retries a dropped stream. */
export interface ReconnectPolicy {
  /** The wait after the first failure (or the server's SSE `retry:`); doubles per further failure. */
  initialDelayMs: number;
  /** The longest wait between two attempts. */
  maxDelayMs: number;
  /**
   * Consecutive failed attempts (no event received in between) before giving up with a RemoteConnectionError.
   * The default (10, from 100 ms up to 5 s) rides out about 25 s of a server restart.
   */
  maxAttempts: number;
  /**
   * Gives up once the stream has been down this long (from its first failure), whatever the attempts: the
   * longest a host waits for a server that is gone. None by default (the attempts decide: about 25 s).
   */
  giveUpAfterMs?: number;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { initialDelayMs: 100, maxDelayMs: 5_000, maxAttempts: 10 };

/**
 * The wait before attempt `failures + 1`: exponential, capped, less up to a fifth at random so that many clients
 * dropped together do not come back in step.
 */
export function backoffDelay(policy: ReconnectPolicy, failures: number, serverRetryMs?: number): number {
  const base = serverRetryMs ?? policy.initialDelayMs;
  const delay = Math.min(policy.maxDelayMs, base * 2 ** Math.max(0, failures - 1));
  return delay * (0.8 + 0.2 * Math.random());
}

/** Statuses worth trying again: the server is restarting, overloaded or behind a proxy that timed out. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 425 || status === 429;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
