/** Bytes per event on the wire: a stopped session's whole SSE stream, read with and without the native records. */
export interface WireBytes {
  events: number;
  withRaw: number;
  withoutRaw: number;
}

/** The SSE bytes of events 1..`last` of `sessionId`, divided by `last`. */
async function sseBytesPerEvent(
  baseUrl: string,
  token: string,
  sessionId: string,
  last: number,
  raw: boolean,
) {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/v1/sessions/${sessionId}/events${raw ? "" : "?raw=0"}`, {
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    signal: abort.signal,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const end = `id: ${last}\n`;
  let bytes = 0;
  let tail = "";
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      tail = (tail + decoder.decode(value, { stream: true })).slice(-(1 << 20));
      const at = tail.lastIndexOf(end);
      if (at >= 0 && tail.indexOf("\n\n", at) >= 0) break;
    }
  } finally {
    abort.abort();
  }
  return bytes / last;
}

export async function wireBytes(
  baseUrl: string,
  token: string,
  sessionId: string,
  last: number,
): Promise<WireBytes> {
  return {
    events: last,
    withRaw: await sseBytesPerEvent(baseUrl, token, sessionId, last, true),
    withoutRaw: await sseBytesPerEvent(baseUrl, token, sessionId, last, false),
  };
}
