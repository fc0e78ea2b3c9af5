import type { ChildProcess } from "node:child_process";
import {
  type GuardOptions,
  HOST_KILL_AFTER_MS,
  killAgentGroup,
  spawnGuarded,
} from "../../drivers/process-guard.js";

/** How much of the start and of the end of the agent's stderr is kept. */
const STDERR_KEPT = 4_000;

/** How the agent process ended. */
export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The agent program under the process guard, in its own process group, so stopping it also stops whatever it
 * spawned (shells, its own model runtimes), and nothing outlives the host. ACP agents ignore stdin EOF: they are
 * stopped with SIGTERM to the group, then SIGKILL (the guard does both; `child` is the guard).
 */
export class AgentProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<AgentExit>;
  /** Resolves with the spawn error (e.g. ENOENT), if the program could not be started. */
  readonly spawnFailed: Promise<Error>;
  /** The first STDERR_KEPT characters of stderr, and the last STDERR_KEPT of what came after them. */
  #stderrHead = "";
  #stderrTail = "";
  #stderrLength = 0;
  #exit: AgentExit | undefined;

  constructor(command: readonly string[], options: GuardOptions & { cwd: string }) {
    this.child = spawnGuarded(command, options);
    this.spawnFailed = new Promise((resolve) => this.child.once("error", resolve));
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.#exit = { code, signal };
        resolve(this.#exit);
      });
      this.child.once("error", () => {
        this.#exit ??= { code: null, signal: null };
        resolve(this.#exit);
      });
    });
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (text: string) => {
      this.#stderrLength += text.length;
      const room = STDERR_KEPT - this.#stderrHead.length;
      if (room > 0) this.#stderrHead += text.slice(0, room);
      const rest = room > 0 ? text.slice(room) : text;
      if (rest.length > 0) this.#stderrTail = (this.#stderrTail + rest).slice(-STDERR_KEPT);
    });
    // A write to a dead agent's stdin must not crash the host.
    this.child.stdin?.on("error", () => {});
  }

  /**
   * What the agent wrote to stderr, bounded: all of it up to 2 × STDERR_KEPT characters, else its head and its
   * tail around a marker that says how much was left out. The head keeps the first error (a program that fails
   * at startup writes it first, often as one JSON line); the tail keeps how it ended.
   */
  get stderrText(): string {
    const left = this.#stderrLength - this.#stderrHead.length - this.#stderrTail.length;
    if (left <= 0) return (this.#stderrHead + this.#stderrTail).trim();
    return `${this.#stderrHead.trimStart()}\n[… ${left} characters of stderr left out …]\n${this.#stderrTail.trimEnd()}`;
  }

  get hasExited(): boolean {
    return this.#exit !== undefined;
  }

  /** Sends a signal to the agent's whole process group (through the guard, which forwards it). */
  signal(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined || this.hasExited) return;
    try {
      this.child.kill(signal);
    } catch {
      // already gone
    }
  }

  /** SIGTERM to the group (the guard sends SIGKILL after its grace); the guard itself is killed after `graceMs`. */
  async stop(graceMs = HOST_KILL_AFTER_MS): Promise<AgentExit> {
    if (this.child.pid === undefined) return { code: null, signal: null };
    this.signal("SIGTERM");
    const timer = setTimeout(() => {
      this.signal("SIGKILL");
      killAgentGroup(this.child);
    }, graceMs);
    try {
      // The guard exits after the agent, having killed what was left of its group.
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
