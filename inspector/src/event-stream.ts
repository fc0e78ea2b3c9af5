import type { RuntimeEvent } from "../../src/contracts/events.js";
import { followSse, type StreamStatus } from "./sse-follow.js";

export type { StreamStatus } from "./sse-follow.js";

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

/**
 * Follows a session's events over SSE. Each (re)connection asks with `after` and `Last-Event-ID` set to the last
 * sequence seen; the caller drops anything at or below it. Returns a function that stops it.
 */
export function followEvents(options: FollowOptions): () => void {
  return followSse({
    request: () => {
      const after = options.lastSequence();
      return {
        url: options.url(after),
        headers: options.headers({ Accept: "text/event-stream", "Last-Event-ID": String(after) }),
      };
    },
    onStatus: options.onStatus,
    onMessage: (_event, data) => {
      let event: unknown;
      try {
        event = JSON.parse(data);
      } catch {
        options.onMalformed?.(data);
        return false;
      }
      if (typeof event === "object" && event !== null && "type" in event) {
        options.onEvent(event as RuntimeEvent);
        return true;
      }
      options.onMalformed?.(data);
      return false;
    },
  });
}
