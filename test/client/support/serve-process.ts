// TEST TOOL: the real `provider-runtime serve` (the built CLI, dist/) as a child process, for the client's tests,
// the remote conformance suite and the server bench.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const CLI = join(REPO, "bin/provider-runtime.js");

export interface ServeOptions {
  /** DATA dir (default: a fresh temp dir, removed by `stop`). Reuse one to restart a server over its store. */
  dataDir?: string;
  /** Default: a free port picked now (so that a restart can take the same one). */
  port?: number;
  token?: string;
  /** `--root`; default the temp dir, where the tests make their session cwds. */
  root?: string;
  /** More arguments after `serve`. Default `--mock`. */
  args?: string[];
  startTimeoutMs?: number;
  /** Node arguments that run the CLI (default the checkout's bin/, i.e. dist/); the bench passes its own build. */
  command?: string[];
  /** Options for node itself, before the CLI (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
}

export interface ServeProcess {
  baseUrl: string;
  port: number;
  token: string;
  dataDir: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr(): string;
  /** SIGTERM, then SIGKILL after 10 s; removes the data dir it made unless `keepData`. */
  stop(keepData?: boolean): Promise<void>;
  /** SIGKILL: a crash. The data dir stays. */
  crash(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

export async function startServe(options: ServeOptions = {}): Promise<ServeProcess> {
  const ownData = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "pr-serve-data-"));
  const port = options.port ?? (await freePort());
  const token = options.token ?? "test-token-0123456789";
  const args = [
    ...(options.nodeArgs ?? []),
    ...(options.command ?? [CLI]),
    "serve",
    "--port",
    String(port),
    "--data",
    dataDir,
    "--token",
    token,
    "--root",
    options.root ?? tmpdir(),
    ...(options.args ?? ["--mock"]),
  ];
  const child = spawn(process.execPath, args, { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    err = (err + text).slice(-20_000);
  });
  const exited = new Promise<number | null>((done) => child.once("close", (code) => done(code)));
  const baseUrl = await new Promise<string>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`serve did not start in time\nstdout: ${out}\nstderr: ${err}`)),
      options.startTimeoutMs ?? 30_000,
    );
    child.stdout?.setEncoding("utf8").on("data", (text: string) => {
      out += text;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        done(match[1].replace(/\/$/, ""));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`serve exited (${code}) before listening\nstderr: ${err}`));
    });
  });
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return {
    baseUrl,
    port,
    token,
    dataDir,
    child,
    exited,
    stderr: () => err,
    stop: async (keepData = false) => {
      await kill("SIGTERM");
      if (ownData && !keepData) rmSync(dataDir, { recursive: true, force: true });
    },
    crash: () => kill("SIGKILL"),
  };
}
