import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { RuntimeEvent } from "../../../src/contracts/events.js";

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(here, "../../..");
export const CLI = join(REPO, "bin/provider-runtime.js");
export const FAKE_ACP_AGENT = join(here, "fake-acp-agent.mjs");
const PTY_RUN = join(here, "pty-run.py");

/** The TMPDIRs `privateTmp` made, until `removePrivateTmps`. */
const madeTmps = new Set<string>();

/** A fresh directory to be a test's TMPDIR, removed by `removePrivateTmps`. */
export function privateTmp(): string {
  const dir = mkdtempSync(join(tmpdir(), "cli-test-"));
  madeTmps.add(dir);
  return dir;
}

/** Removes every TMPDIR `privateTmp` made: the users' afterAll, once the file's CLIs have exited. */
export function removePrivateTmps(): void {
  for (const dir of madeTmps) rmSync(dir, { recursive: true, force: true });
  madeTmps.clear();
}

export interface CliOptions {
  /** stdin and stderr on a pseudo-terminal. */
  tty?: boolean;
  /** TMPDIR; default a fresh `privateTmp`. */
  tmp?: string;
  env?: Record<string, string>;
  /** The CLI script and any arguments before `args` (default the checkout's bin/, i.e. dist/). */
  command?: string[];
  /** Options for node itself, before the CLI (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
}

/** The built CLI as a child process, with its own TMPDIR; on a pseudo-terminal (stdin, stderr) with `tty`. */
export class CliProcess {
  readonly child: ChildProcess;
  readonly tmp: string;
  readonly exited: Promise<number | null>;
  #out = "";
  #err = "";
  readonly #watchers = new Set<() => void>();

  constructor(args: string[], options: CliOptions = {}) {
    this.tmp = options.tmp ?? privateTmp();
    const node = [process.execPath, ...(options.nodeArgs ?? []), ...(options.command ?? [CLI]), ...args];
    const command = options.tty ? ["python3", PTY_RUN, ...node] : node;
    const [program, ...rest] = command as [string, ...string[]];
    this.child = spawn(program, rest, {
      cwd: REPO,
      env: { ...process.env, TMPDIR: this.tmp, NO_COLOR: "1", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdout?.setEncoding("utf8").on("data", (text: string) => this.#grow("out", text));
    this.child.stderr?.setEncoding("utf8").on("data", (text: string) => this.#grow("err", text));
    this.exited = new Promise((done) => this.child.once("close", (code) => done(code)));
  }

  get stdout(): string {
    return this.#out;
  }

  get stderr(): string {
    return this.#err;
  }

  events(): RuntimeEvent[] {
    return this.#out
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as RuntimeEvent);
  }

  /** Keys typed at the terminal (with `tty`), or bytes on stdin. */
  type(text: string): void {
    this.child.stdin?.write(text);
  }

  /** Waits until the stream's text (from `from` on) matches; fails with both streams after `timeoutMs`. */
  async waitFor(stream: "out" | "err", pattern: RegExp, options: { from?: number; timeoutMs?: number } = {}) {
    const text = () => (stream === "out" ? this.#out : this.#err).slice(options.from ?? 0);
    if (pattern.test(text())) return;
    await new Promise<void>((done, fail) => {
      const giveUp = (why: string) => {
        clearTimeout(timer);
        this.#watchers.delete(check);
        fail(
          new Error(
            `${why}: no ${pattern} on std${stream}\n--- stdout\n${this.#out.slice(-3000)}\n--- stderr\n${this.#err.slice(-3000)}`,
          ),
        );
      };
      const timer = setTimeout(() => giveUp("timed out"), options.timeoutMs ?? 45_000);
      const check = () => {
        if (!pattern.test(text())) return false;
        clearTimeout(timer);
        this.#watchers.delete(check);
        done();
        return true;
      };
      this.#watchers.add(check);
      void this.exited.then(() =>
        setTimeout(() => {
          if (this.#watchers.has(check) && !check()) giveUp("the CLI exited");
        }, 100),
      );
    });
  }

  #grow(stream: "out" | "err", text: string): void {
    if (stream === "out") this.#out += text;
    else this.#err += text;
    for (const check of [...this.#watchers]) check();
  }
}

/** Live processes whose TMPDIR is `tmp` or lies inside it. */
export function processesWithTmpdir(tmp: string): number[] {
  const alive: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      const state = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.[0];
      // drivers give each agent a private TMPDIR inside the host's: a prefix match finds those too
      const inTmp = environ.some((line) => line === `TMPDIR=${tmp}` || line.startsWith(`TMPDIR=${tmp}/`));
      if (inTmp && state !== "Z") alive.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return alive;
}
