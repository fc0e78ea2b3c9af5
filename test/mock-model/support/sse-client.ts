import { createParser } from "eventsource-parser";

export interface ReceivedEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface SseResult {
  status: number;
  /** Parsed JSON of a non-SSE answer (an error, a JSON message). */
  json: unknown;
  events: ReceivedEvent[];
  /** The body ended normally; false when the connection broke mid-stream. */
  endedCleanly: boolean;
}

/** POSTs a JSON body and reads the SSE answer with eventsource-parser, the way a streaming client does. */
export async function postSse(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<SseResult> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const events: ReceivedEvent[] = [];
  if (!response.headers.get("content-type")?.includes("text/event-stream")) {
    return { status: response.status, json: await response.json(), events, endedCleanly: true };
  }
  const parser = createParser({
    onEvent: (message) => events.push({ event: message.event ?? "message", data: JSON.parse(message.data) }),
  });
  const decoder = new TextDecoder();
  let endedCleanly = true;
  try {
    for await (const chunk of response.body ?? [])
      parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  } catch {
    endedCleanly = false;
  }
  return { status: response.status, json: undefined, events, endedCleanly };
}

export function eventNames(result: SseResult): string[] {
  return result.events.map((event) => event.event);
}

/** Event names with runs of the same name collapsed, e.g. many deltas become one entry. */
export function collapsedEventNames(result: SseResult): string[] {
  return eventNames(result).filter((name, index, names) => name !== names[index - 1]);
}
