import { createParser, type EventSourceMessage } from "eventsource-parser";
import { RemoteProtocolError } from "./errors.js";

export interface SseReadOptions {
  /** The route, for errors. */
  route: string;
  /** The most characters one message (or a partial line) may buffer; past it the stream is broken. */
  maxMessageChars: number;
  /** Called on every chunk received, heartbeat comments included: the caller's idle timer. */
  onChunk(): void;
  /** The server's `retry:` field. */
  onRetry(ms: number): void;
}

/**
 * The messages of one SSE response body, in order, until the body ends (returns) or breaks (throws). Breaking off
 * the iteration cancels the body, so the connection is released.
 */
export async function* readSseMessages(
  body: ReadableStream<Uint8Array>,
  options: SseReadOptions,
): AsyncGenerator<EventSourceMessage> {
  let parsed: EventSourceMessage[] = [];
  let overflow = false;
  const parser = createParser({
    onEvent: (message) => parsed.push(message),
    onRetry: options.onRetry,
    onError: (error) => {
      // unknown fields and a bad retry are ignored, as the SSE standard says; only the size limit breaks
      if (error.type === "max-buffer-size-exceeded") overflow = true;
    },
    maxBufferSize: options.maxMessageChars,
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      options.onChunk();
      parser.feed(decoder.decode(value, { stream: true }));
      if (overflow)
        throw new RemoteProtocolError(
          options.route,
          `an SSE message longer than ${options.maxMessageChars} characters`,
        );
      const batch = parsed;
      parsed = [];
      yield* batch;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
