import type { ServerResponse } from "node:http";

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** A reply rendered for the wire: the events, and where to cut the stream off (the `cutoff` scenario). */
export interface SseScript {
  events: SseEvent[];
  /** Number of events to send before destroying the socket without a completion event. */
  cutAfterEvents?: number;
}

/** Identifies one reply's ids and usage; `requestNumber` keeps ids unique across a server's lifetime. */
export interface ReplyContext {
  requestNumber: number;
  model: string;
  inputTokens: number;
}

export function openSse(response: ServerResponse): void {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
}

export function writeSseEvent(response: ServerResponse, { event, data }: SseEvent): void {
  response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Index of the event after which `deltaCount` text deltas have been sent. */
export function cutIndexAfterDeltas(
  events: readonly SseEvent[],
  isDelta: (event: SseEvent) => boolean,
  deltaCount: number,
): number {
  let seen = 0;
  for (let index = 0; index < events.length; index++) {
    const event = events[index];
    if (event !== undefined && isDelta(event)) seen++;
    if (seen === deltaCount) return index + 1;
  }
  return events.length;
}

export function estimateTokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / 4));
}
