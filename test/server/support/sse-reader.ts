/**
 * A small Server-Sent Events reader over fetch, written for the tests so that they read the server the way any
 * HTTP client would (no import of the project's own client): `id:` and `data:` lines, a blank line ends a message,
 * `:` lines are comments (heartbeats).
 */

export interface SseMessage {
  id: string | undefined;
  /** The `event:` field, where the server named the message. */
  event?: string;
  data: string;
}

export class SseReader {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  /** Settles when the response has ended (the server closed it, or `close()`). */
  readonly ended: Promise<void>;
  status = 0;
  contentType = "";
  readonly #abort = new AbortController();
  readonly #watchers = new Set<() => void>();

  constructor(url: string, headers: Record<string, string>) {
    this.ended = this.#read(url, headers);
  }

  /** The `data` of each message, parsed as JSON. */
  events<T = { sequence: number; type: string } & Record<string, unknown>>(): T[] {
    return this.messages.map((message) => JSON.parse(message.data) as T);
  }

  /** Waits until `condition` holds over what has arrived. */
  async until(condition: (reader: SseReader) => boolean, timeoutMs = 45_000): Promise<void> {
    if (condition(this)) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#watchers.delete(check);
        const tail = this.messages.slice(-12).map((m) => {
          const event = JSON.parse(m.data) as { type?: string; payload?: unknown };
          return `${m.id} ${event.type} ${JSON.stringify(event.payload).slice(0, 160)}`;
        });
        reject(
          new Error(
            `SSE: condition not met in ${timeoutMs} ms; ${this.messages.length} messages, the last:\n${tail.join("\n")}`,
          ),
        );
      }, timeoutMs);
      const check = () => {
        if (!condition(this)) return;
        clearTimeout(timer);
        this.#watchers.delete(check);
        resolve();
      };
      this.#watchers.add(check);
      void this.ended.then(() => setTimeout(check, 0));
    });
  }

  close(): void {
    this.#abort.abort();
  }

  async #read(url: string, headers: Record<string, string>): Promise<void> {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: "text/event-stream", ...headers },
        signal: this.#abort.signal,
      });
    } catch {
      return;
    }
    this.status = response.status;
    this.contentType = response.headers.get("content-type") ?? "";
    if (response.body === null) return;
    const decoder = new TextDecoder();
    let buffer = "";
    let id: string | undefined;
    let event: string | undefined;
    let data: string[] = [];
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let newline = buffer.indexOf("\n");
        while (newline >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, "");
          buffer = buffer.slice(newline + 1);
          if (line === "") {
            if (data.length > 0)
              this.messages.push({ id, ...(event === undefined ? {} : { event }), data: data.join("\n") });
            id = undefined;
            event = undefined;
            data = [];
          } else if (line.startsWith(":")) {
            this.comments.push(line.slice(1).trim());
          } else {
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (field === "id") id = value;
            else if (field === "event") event = value;
            else if (field === "data") data.push(value);
          }
          newline = buffer.indexOf("\n");
        }
        for (const check of [...this.#watchers]) check();
      }
    } catch {
      // aborted, or the server went away
    }
    for (const check of [...this.#watchers]) check();
  }
}
