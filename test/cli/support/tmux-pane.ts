// TEST TOOL: a command in a real terminal — a detached tmux session on its own socket — whose screen the test reads
// as a user would see it (stdout and stderr on one screen, prompts and output interleaved as they were drawn).
import { execFileSync } from "node:child_process";
import { CLI, privateTmp, REPO } from "./cli-process.js";

let sessions = 0;

export class TmuxPane {
  readonly socket: string;
  readonly tmp: string;

  /** Starts `provider-runtime ARGS` in a 160×50 terminal, with its own TMPDIR. */
  constructor(args: string[]) {
    this.socket = `pr-test-${process.pid}-${++sessions}`;
    this.tmp = privateTmp();
    const command = [process.execPath, CLI, ...args]
      .map((word) => `'${word.replace(/'/g, "'\\''")}'`)
      .join(" ");
    this.#tmux([
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-x",
      "160",
      "-y",
      "50",
      "-c",
      REPO,
      "-e",
      `TMPDIR=${this.tmp}`,
      "-e",
      "NO_COLOR=1",
      `${command}; echo "[exit $?]"; sleep 600`,
    ]);
  }

  /** The screen and its scrollback, each wrapped line joined back into one. */
  screen(): string {
    return this.#tmux(["capture-pane", "-p", "-J", "-S", "-5000"]);
  }

  /** Types text (`Enter` for the key). */
  type(text: string, enter = true): void {
    this.#tmux(["send-keys", "-l", text]);
    if (enter) this.#tmux(["send-keys", "Enter"]);
  }

  /** Waits until the screen matches, polling it as a person would look at it. */
  async waitFor(pattern: RegExp, timeoutMs = 90_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the screen never matched ${pattern}:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  kill(): void {
    try {
      this.#tmux(["kill-server"]);
    } catch {
      // already gone
    }
  }

  #tmux(args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }
}
