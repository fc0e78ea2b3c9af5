import { type ChildProcess, spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { CLI, privateTmp, removePrivateTmps } from "../cli/support/cli-process.js";

afterAll(removePrivateTmps);

/** `count` sockets to the port, resolved once each has connected or been refused; none sends a byte. */
async function idleSockets(port: number, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((settled) => {
          const socket = connect({ host: "127.0.0.1", port });
          sockets.push(socket);
          socket.once("connect", () => settled());
          socket.once("error", () => settled());
          socket.once("close", () => settled());
        }),
    ),
  );
  return sockets;
}

const closed = (socket: Socket) => new Promise<void>((done) => socket.once("close", () => done()));

/** `serve` under a file limit of 256, as `ulimit -n 256` would leave it; resolves with its port once listening. */
async function limitedServe(data: string, tmp: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    "/usr/bin/prlimit",
    ["--nofile=256:256", process.execPath, CLI, "serve", "--port", "0", "--data", data],
    {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  running.add(child);
  let out = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.setEncoding("utf8").on("data", (text: string) => {
      out += text;
      const listening = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (listening?.[1] !== undefined) resolve(Number(listening[1]));
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  return { child, port };
}

const running = new Set<ChildProcess>();
afterEach(async () => {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await exited;
    }
  }
  running.clear();
});

describe("serve's connections: timeouts and a cap (a server limited to 256 open files)", () => {
  it("400 idle sockets do not keep health from answering", async () => {
    const tmp = privateTmp();
    const { port } = await limitedServe(join(tmp, "data"), tmp);
    const sockets = await idleSockets(port, 400);
    const started = Date.now();
    const health = await fetch(`http://127.0.0.1:${port}/v1/health`, { signal: AbortSignal.timeout(20_000) });
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    // the oldest idle ones made room: fewer than the file limit are still open
    expect(sockets.filter((socket) => !socket.destroyed && socket.readyState === "open").length).toBeLessThan(
      256,
    );
    for (const socket of sockets) socket.destroy();
  }, 90_000);

  it("a half-sent request is ended at the header timeout (10 s; Node's own is 60 s, checked every 30 s)", async () => {
    const tmp = privateTmp();
    const { port } = await limitedServe(join(tmp, "data"), tmp);
    const half = connect({ host: "127.0.0.1", port });
    const halfClosed = closed(half);
    half.resume(); // reads the 408 and the end
    const started = Date.now();
    half.write("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    await halfClosed;
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 90_000);
});
