import { type ChildProcess, spawn } from "node:child_process";

/** How the agent process ended. */
export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The agent program in its own process group, so stopping it also stops whatever it spawned (shells, its own
 * model runtimes). ACP agents ignore stdin EOF: they are stopped with SIGTERM to the group, then SIGKILL.
 */
export class AgentProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<AgentExit>;
  /** Resolves with the spawn error (e.g. ENOENT), if the program could not be started. */
  readonly spawnFailed: Promise<Error>;
  #stderrTail = "";
  #exit: AgentExit | undefined;

  constructor(command: readonly string[], options: { cwd: string; env: Record<string, string | undefined> }) {
    const [program, ...args] = command;
    if (program === undefined) throw new Error("empty agent command");
    this.child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
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
      this.#stderrTail = (this.#stderrTail + text).slice(-2_000);
    });
    // A write to a dead agent's stdin must not crash the host.
    this.child.stdin?.on("error", () => {});
  }

  get stderrTail(): string {
    return this.#stderrTail.trim();
  }

  get hasExited(): boolean {
    return this.#exit !== undefined;
  }

  /** Sends a signal to the whole process group (falls back to the child alone). */
  signal(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined || this.hasExited) return;
    try {
      process.kill(-pid, signal);
    } catch {
      try {
        this.child.kill(signal);
      } catch {
        // already gone
      }
    }
  }

  /** SIGTERM to the group; SIGKILL after `graceMs` if it is still there. */
  async stop(graceMs = 3_000): Promise<AgentExit> {
    if (this.child.pid === undefined) return { code: null, signal: null };
    this.signal("SIGTERM");
    const timer = setTimeout(() => this.signal("SIGKILL"), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
      // The leader may be gone while children linger in the group.
      const pid = this.child.pid;
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // group empty
      }
    }
  }
}
