// TEST TOOL: the real `provider-runtime serve` (the built CLI, dist/: `npm run build` first) as a child process,
// for the server's, the client's, the inspector's, the cluster's and the remote conformance tests and the benches.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CliProcess, removePrivateTmps } from "../../cli/support/cli-process.js";

export interface ServeOptions {
  /** `--data`; default a fresh temp dir, removed by `removeDirs`. Reuse one to restart a server over its store. */
  data?: string;
  /** The token, given as PROVIDER_RUNTIME_TOKEN; default none (serve's own rules: the one in the data dir). */
  token?: string;
  /** `--port`; default 0, any free port. A restart passes the port the server had. */
  port?: number;
  /** More arguments after these (e.g. `--mock`, `--root DIR`). */
  extra?: string[];
  /** The CLI's TMPDIR; default a fresh one, removed by `removeDirs`. */
  tmp?: string;
  env?: Record<string, string>;
  /** How long to wait for "listening on"; default 30 s. */
  startTimeoutMs?: number;
  /** The CLI script and any arguments before `serve` (default the checkout's bin/); the bench passes its build. */
  command?: string[];
  /** Options for node itself, before the CLI (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
}

const LISTENING = /listening on (http:\/\/\S+)\n/;

/** `provider-runtime serve` as a child process (a CliProcess), once it printed its address. */
export class ServeProcess {
  readonly cli: CliProcess;
  readonly data: string;
  readonly token: string | undefined;
  /** The server's address, without a trailing slash. */
  url = "";

  /** Data dirs made here, removed by `removeDirs` once the file's tests are done. */
  static readonly madeDirs = new Set<string>();

  /** Removes the data dirs made here and the CLIs' TMPDIRs: the users' afterAll, once the servers are stopped. */
  static removeDirs(): void {
    for (const dir of ServeProcess.madeDirs) rmSync(dir, { recursive: true, force: true });
    ServeProcess.madeDirs.clear();
    removePrivateTmps();
  }

  /** Servers started and not yet exited: a failed test stops them in its afterEach. */
  static readonly running = new Set<ServeProcess>();

  private constructor(cli: CliProcess, data: string, token: string | undefined) {
    this.cli = cli;
    this.data = data;
    this.token = token;
    ServeProcess.running.add(this);
    void cli.exited.then(() => ServeProcess.running.delete(this));
  }

  /** Stops every server a test left running (`stop`: SIGTERM, then SIGKILL after 10 s). */
  static async stopAll(): Promise<void> {
    await Promise.all([...ServeProcess.running].map((server) => server.stop()));
  }

  static async start(options: ServeOptions = {}): Promise<ServeProcess> {
    let data = options.data;
    if (data === undefined) {
      data = mkdtempSync(join(tmpdir(), "serve-data-"));
      ServeProcess.madeDirs.add(data);
    }
    const args = ["serve", "--port", String(options.port ?? 0), "--data", data, ...(options.extra ?? [])];
    const env =
      options.token === undefined ? options.env : { ...options.env, PROVIDER_RUNTIME_TOKEN: options.token };
    const cli = new CliProcess(args, {
      ...(options.tmp === undefined ? {} : { tmp: options.tmp }),
      ...(env === undefined ? {} : { env }),
      ...(options.command === undefined ? {} : { command: options.command }),
      ...(options.nodeArgs === undefined ? {} : { nodeArgs: options.nodeArgs }),
    });
    const server = new ServeProcess(cli, data, options.token);
    try {
      await cli.waitFor("out", LISTENING, { timeoutMs: options.startTimeoutMs ?? 30_000 });
    } catch (error) {
      await server.stop();
      throw error;
    }
    server.url = (LISTENING.exec(cli.stdout)?.[1] ?? "").replace(/\/$/, "");
    return server;
  }

  get child(): ChildProcess {
    return this.cli.child;
  }

  get exited(): Promise<number | null> {
    return this.cli.exited;
  }

  get stderr(): string {
    return this.cli.stderr;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  /** fetch on the server, with the token unless `auth` is given (`null`: no Authorization header). */
  async fetch(
    path: string,
    init: RequestInit & { auth?: string | null; json?: unknown } = {},
  ): Promise<Response> {
    const headers = new Headers(init.headers);
    const auth = init.auth === undefined ? this.token : init.auth;
    if (auth !== null && auth !== undefined) headers.set("authorization", `Bearer ${auth}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    const { auth: _auth, json: _json, ...rest } = init;
    return fetch(`${this.url}${path}`, { ...rest, headers, ...(body === undefined ? {} : { body }) });
  }

  async json<T = Record<string, unknown>>(
    path: string,
    init: RequestInit & { auth?: string | null; json?: unknown } = {},
  ): Promise<{ status: number; body: T }> {
    const response = await this.fetch(path, init);
    return { status: response.status, body: (await response.json()) as T };
  }

  /** Sends `signal` (as an operator stops it: SIGTERM), then SIGKILL after 10 s; resolves with the exit code. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
    const { child } = this.cli;
    if (child.exitCode !== null || child.signalCode !== null) return this.cli.exited;
    child.kill(signal);
    const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const code = await this.cli.exited;
    clearTimeout(kill);
    return code;
  }

  /** SIGKILL: a crash. The data dir stays. */
  async crash(): Promise<void> {
    await this.stop("SIGKILL");
  }
}
