import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, connect as tcpConnect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The Debian package's binary (`apt-get install nats-server`; `.ci/run` installs it). */
export const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN ?? "/usr/sbin/nats-server";

/**
 * A real `nats-server -js` on a loopback port with its own JetStream store dir. `stop()` kills it and leaves the
 * dir (for `restart()` on the same port and dir: the outage tests); `dispose()` kills it and removes the dir.
 */
export interface NatsServer {
  readonly url: string;
  readonly port: number;
  readonly storeDir: string;
  stop(): Promise<void>;
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

export interface NatsServerOptions {
  /**
   * The server's configuration file (`-c`), given its client port and JetStream dir: users, permissions, TLS,
   * a cluster's routes. Without it, the bare flags.
   */
  config?: (port: number, storeDir: string) => string;
  /** The client port, when it must be known beforehand (a cluster's routes); default a free one. */
  port?: number;
  /** The URL scheme the tests connect with (`tls` for a TLS-only server); default nats. */
  scheme?: string;
}

export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServer> {
  const root = await mkdtemp(join(tmpdir(), "pr-nats-"));
  const storeDir = join(root, "js");
  const port = options.port ?? (await freePort());
  let args = ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", storeDir];
  if (options.config !== undefined) {
    const file = join(root, "nats.conf");
    await writeFile(file, options.config(port, storeDir), { mode: 0o600 });
    args = ["-c", file];
  }
  let child: ChildProcess | undefined = await launch(port, args);

  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running) await kill(running);
  };
  return {
    url: `${options.scheme ?? "nats"}://127.0.0.1:${port}`,
    port,
    storeDir,
    stop,
    async restart() {
      await stop();
      child = await launch(port, args);
    },
    async dispose() {
      await stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

async function launch(port: number, args: string[]): Promise<ChildProcess> {
  const child = spawn(NATS_SERVER_BIN, args, {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    log = (log + chunk).slice(-8_000);
  });
  const exited = new Promise<never>((_, reject) => {
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`nats-server exited (${code}) before it was ready:\n${log}`)),
    );
  });
  exited.catch(() => {});
  const deadline = Date.now() + 15_000;
  // Ready once JetStream is up and the client port accepts connections (it logs "Server is ready").
  while (!log.includes("Server is ready") || !(await accepts(port))) {
    if (Date.now() > deadline) {
      await kill(child);
      throw new Error(`nats-server not ready within 15 s:\n${log}`);
    }
    await Promise.race([exited, delay(50)]);
  }
  return child;
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
