import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CliProcess, privateTmp } from "../../cli/support/cli-process.js";

export interface ServeOptions {
  data?: string;
  token?: string;
  extra?: string[];
  tmp?: string;
  env?: Record<string, string>;
}

/** `provider-runtime serve --port 0` as a child process (the built CLI), once it printed its address. */
export class ServeProcess {
  readonly cli: CliProcess;
  readonly data: string;
  readonly token: string | undefined;
  url = "";

  /** Data dirs made here, removed by `removeDataDirs` once the file's tests are done. */
  static readonly madeDirs = new Set<string>();

  static removeDataDirs(): void {
    for (const dir of ServeProcess.madeDirs) rmSync(dir, { recursive: true, force: true });
    ServeProcess.madeDirs.clear();
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

  /** Stops (SIGTERM, then SIGKILL after 10 s) every server a test left running. */
  static async stopAll(): Promise<void> {
    await Promise.all(
      [...ServeProcess.running].map(async (server) => {
        const kill = setTimeout(() => server.cli.child.kill("SIGKILL"), 10_000);
        await server.stop();
        clearTimeout(kill);
      }),
    );
  }

  static async start(options: ServeOptions = {}): Promise<ServeProcess> {
    let data = options.data;
    if (data === undefined) {
      data = mkdtempSync(join(tmpdir(), "serve-data-"));
      ServeProcess.madeDirs.add(data);
    }
    const args = ["serve", "--port", "0", "--data", data, ...(options.extra ?? [])];
    if (options.token !== undefined) args.push("--token", options.token);
    const cli = new CliProcess(args, {
      tmp: options.tmp ?? privateTmp(),
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    const server = new ServeProcess(cli, data, options.token);
    await cli.waitFor("out", /listening on (http:\/\/\S+)\n/, { timeoutMs: 30_000 });
    server.url = /listening on (http:\/\/\S+)\n/.exec(cli.stdout)?.[1] ?? "";
    return server;
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

  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
    this.cli.child.kill(signal);
    return this.cli.exited;
  }
}
