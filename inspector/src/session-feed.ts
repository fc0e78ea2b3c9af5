import type { SessionSummary } from "../../src/api/schemas.js";
import { followSse, type StreamStatus } from "./sse-follow.js";

export interface FollowSessionsOptions {
  url: string;
  headers: (extra: Record<string, string>) => Record<string, string>;
  /** The whole list (at each connection: what changed while disconnected is in it). */
  onSnapshot: (sessions: SessionSummary[]) => void;
  onSession: (session: SessionSummary) => void;
  onRemoved: (id: string) => void;
  onStatus: (status: StreamStatus) => void;
}

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
  return followSse({
    request: () => ({ url: options.url, headers: options.headers({ Accept: "text/event-stream" }) }),
    onStatus: options.onStatus,
    onMessage: (event, data) => dispatch(options, event, data),
  });
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
