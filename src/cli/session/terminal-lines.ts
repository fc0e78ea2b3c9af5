import { createInterface, type Interface } from "node:readline";
import { escapeControls } from "../../view/terminal-text.js";

/** What became of a question put at the terminal. */
export type LineResult =
  | { kind: "line"; text: string }
  /** stdin ended (Ctrl-D): no answer will ever come. */
  | { kind: "eof" }
  /** Ctrl-C at the prompt. */
  | { kind: "interrupt" }
  /** The asker withdrew the question (the request was resolved elsewhere). */
  | { kind: "withdrawn" };

export interface TerminalLinesOptions {
  input: NodeJS.ReadableStream;
  /** Where prompts (and, on a terminal, the echo of typing) go. */
  output: NodeJS.WritableStream;
  /** Line editing in raw mode: Ctrl-C and Ctrl-D are keys we read, not signals for the process group. */
  terminal: boolean;
  /** A line typed while no question is open (chat: a prompt or a command; run: dropped). */
  onLine?: (text: string) => void;
  /** Ctrl-C; `atPrompt` when it cancelled an open question. */
  onInterrupt?: (atPrompt: boolean) => void;
  onEnd?: () => void;
}

/**
 * The one reader of stdin. Questions are put one at a time, and a line answers only the question open when it
 * was typed: nothing typed ahead answers a question asked later.
 */
export class TerminalLines {
  readonly #rl: Interface;
  readonly #options: TerminalLinesOptions;
  #open: ((result: LineResult) => void) | undefined;
  #ended = false;
  /** A prompt is on the screen, waiting for its line. */
  #prompting = false;

  constructor(options: TerminalLinesOptions) {
    this.#options = options;
    this.#rl = createInterface({
      input: options.input,
      output: options.output,
      terminal: options.terminal,
      prompt: "",
    });
    this.#rl.on("line", (text) => {
      this.#prompting = false;
      if (this.#open !== undefined) this.#settle({ kind: "line", text });
      else options.onLine?.(text);
    });
    this.#rl.on("SIGINT", () => {
      this.#prompting = false;
      const atPrompt = this.#open !== undefined;
      this.#clearLine();
      options.output.write("^C\n");
      if (atPrompt) this.#settle({ kind: "interrupt" });
      options.onInterrupt?.(atPrompt);
    });
    this.#rl.on("close", () => {
      this.#prompting = false;
      this.#ended = true;
      this.#settle({ kind: "eof" });
      options.onEnd?.();
    });
  }

  /** Whether stdin has ended: every later question is answered `eof` at once. */
  get ended(): boolean {
    return this.#ended;
  }

  get asking(): boolean {
    return this.#open !== undefined;
  }

  /** Puts one question; the caller waits for it before asking the next. */
  ask(prompt: string, signal?: AbortSignal): Promise<LineResult> {
    if (this.#ended) return Promise.resolve({ kind: "eof" });
    if (this.#open !== undefined) throw new Error("a question is already open at the terminal");
    if (signal?.aborted) return Promise.resolve({ kind: "withdrawn" });
    return new Promise((resolve) => {
      const settle = (result: LineResult) => {
        signal?.removeEventListener("abort", withdraw);
        resolve(result);
      };
      const withdraw = () => {
        if (this.#open !== settle) return;
        this.#clearLine();
        this.#options.output.write("(withdrawn)\n");
        this.#settle({ kind: "withdrawn" });
      };
      signal?.addEventListener("abort", withdraw, { once: true });
      this.#open = settle;
      this.#rl.setPrompt(escapeControls(prompt));
      this.#rl.prompt();
      this.#prompting = true;
    });
  }

  /** Shows a prompt for a line nobody asked for (chat's input line). */
  prompt(text: string): void {
    if (this.#ended || this.#open !== undefined) return;
    this.#rl.setPrompt(escapeControls(text));
    this.#rl.prompt();
    this.#prompting = true;
  }

  /**
   * Output written while a prompt shows goes above it: on a terminal the prompt line is cleared, `write` runs,
   * and the prompt is drawn again with what was typed so far, so nothing prints into the line being typed.
   */
  above(write: () => void): void {
    if (!this.#options.terminal || !this.#prompting) {
      write();
      return;
    }
    this.#options.output.write("\r\u001b[2K");
    write();
    this.#rl.prompt(true);
  }

  /** Text on the prompt's stream, on a line of its own (an agent's part of it with its controls escaped). */
  say(text: string): void {
    this.#options.output.write(`${escapeControls(text)}\n`);
  }

  close(): void {
    this.#rl.close();
  }

  /** Drops what was typed on the line so far (a terminal only: elsewhere there is no line being edited). */
  #clearLine(): void {
    if (this.#options.terminal) this.#rl.write(null, { ctrl: true, name: "u" });
  }

  #settle(result: LineResult): void {
    const open = this.#open;
    this.#open = undefined;
    open?.(result);
  }
}
