import type { ChildProcessWithoutNullStreams } from "node:child_process";

/**
 * Newline-delimited JSON over a child's stdio. Codex's app-server speaks JSON-RPC without the `jsonrpc` field, so
 * no JSON-RPC library accepts its messages; the framing is just this: one JSON value per line.
 */
export interface StdioLinesHandlers {
  message(value: unknown): void;
  /** A line that is not JSON (or a line longer than the cap). */
  garbage(text: string): void;
  /** The child's stdout ended (it exited, or closed the pipe while running). */
  end?(): void;
}

const MAX_LINE_BYTES = 64 * 1024 * 1024;

export class StdioLines {
  #buffer = "";
  #closed = false;
  #paused = false;
  readonly #handlers: StdioLinesHandlers;

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    handlers: StdioLinesHandlers,
  ) {
    this.#handlers = handlers;
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      this.#buffer += chunk;
      this.#drain();
      if (this.#buffer.length > MAX_LINE_BYTES && !this.#closed && this.#buffer.indexOf("\n") < 0) {
        const head = this.#buffer.slice(0, 200);
        this.#buffer = "";
        handlers.garbage(`${head}… (line longer than ${MAX_LINE_BYTES} bytes)`);
      }
    });
    child.stdout.once("end", () => {
      if (!this.#closed) handlers.end?.();
    });
  }

  /** Delivers the complete lines buffered so far; stops as soon as a handler pauses (back-pressure). */
  #drain(): void {
    let newline = this.#buffer.indexOf("\n");
    while (newline >= 0 && !this.#closed && !this.#paused) {
      const line = this.#buffer.slice(0, newline).trim();
      this.#buffer = this.#buffer.slice(newline + 1);
      if (line.length > 0) this.#deliver(line);
      newline = this.#buffer.indexOf("\n");
    }
  }

  #deliver(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#handlers.garbage(line);
      return;
    }
    this.#handlers.message(value);
  }

  /** Stops delivering lines (after a fatal error); the process is ended by the caller. */
  close(): void {
    this.#closed = true;
  }

  /** Back-pressure: stop delivering lines (also those already read) and reading stdout until `resume`. */
  pause(): void {
    this.#paused = true;
    this.child.stdout.pause();
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.#drain();
    if (!this.#paused) this.child.stdout.resume();
  }

  send(value: unknown): boolean {
    if (this.#closed || !this.child.stdin.writable) return false;
    this.child.stdin.write(`${JSON.stringify(value)}\n`);
    return true;
  }
}
