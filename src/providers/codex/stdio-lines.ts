import type { ChildProcessWithoutNullStreams } from "node:child_process";

/**
 * Newline-delimited JSON over a child's stdio. Codex's app-server speaks JSON-RPC without the `jsonrpc` field, so
 * no JSON-RPC library accepts its messages; the framing is just this: one JSON value per line.
 */
export interface StdioLinesHandlers {
  message(value: unknown): void;
  /** A line that is not JSON (or a line longer than the cap). */
  garbage(text: string): void;
}

const MAX_LINE_BYTES = 64 * 1024 * 1024;

export class StdioLines {
  #buffer = "";
  #closed = false;

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    handlers: StdioLinesHandlers,
  ) {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      this.#buffer += chunk;
      let newline = this.#buffer.indexOf("\n");
      while (newline >= 0 && !this.#closed) {
        const line = this.#buffer.slice(0, newline).trim();
        this.#buffer = this.#buffer.slice(newline + 1);
        if (line.length > 0) this.#deliver(line, handlers);
        newline = this.#buffer.indexOf("\n");
      }
      if (this.#buffer.length > MAX_LINE_BYTES && !this.#closed) {
        const head = this.#buffer.slice(0, 200);
        this.#buffer = "";
        handlers.garbage(`${head}… (line longer than ${MAX_LINE_BYTES} bytes)`);
      }
    });
  }

  #deliver(line: string, handlers: StdioLinesHandlers): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      handlers.garbage(line);
      return;
    }
    handlers.message(value);
  }

  /** Stops delivering lines (after a fatal error); the process is ended by the caller. */
  close(): void {
    this.#closed = true;
  }

  /** Back-pressure: stop reading stdout until `resume`. */
  pause(): void {
    this.child.stdout.pause();
  }

  resume(): void {
    this.child.stdout.resume();
  }

  send(value: unknown): boolean {
    if (this.#closed || !this.child.stdin.writable) return false;
    this.child.stdin.write(`${JSON.stringify(value)}\n`);
    return true;
  }
}
