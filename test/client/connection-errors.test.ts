import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RemoteClient, RemoteConnectionError } from "../../src/client/index.js";
import { ServeProcess } from "../server/support/serve-process.js";

/**
 * The remote client's connection errors as docs/client.md says: a refused or reset connection is a
 * RemoteConnectionError naming the URL (never the platform's bare `TypeError: fetch failed`), and a stream whose
 * server is gone gives up after the time the host set.
 */

const TOKEN = "connection-errors-token-0123456789";
const dirs: string[] = [];

afterAll(async () => {
  await ServeProcess.stopAll();
  ServeProcess.removeDirs();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A loopback port nothing listens on: bound, noted, closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("a server that cannot be reached", () => {
  it("a call to a closed port is a RemoteConnectionError with the URL", async () => {
    const port = await closedPort();
    const client = new RemoteClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN });
    for (const call of [client.listSessions(), client.createSession({ provider: "codex" })]) {
      const error = await errorOf(call);
      expect(error).toBeInstanceOf(RemoteConnectionError);
      expect((error as RemoteConnectionError).url).toMatch(
        new RegExp(`^http://127\\.0\\.0\\.1:${port}/v1/sessions`),
      );
      expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    }
  });

  it("follow() on a closed port gives up after the host's giveUpAfterMs, long before its attempts run out", async () => {
    const port = await closedPort();
    const client = new RemoteClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN });
    const iterate = async () => {
      const policy = { giveUpAfterMs: 500, maxAttempts: 1_000, initialDelayMs: 50 };
      for await (const _ of client.follow("ses_x", { reconnect: policy })) break;
    };
    const error = await errorOf(iterate());
    expect(error).toBeInstanceOf(RemoteConnectionError);
    // given up by time: with 1,000 attempts allowed, far fewer were made
    expect((error as RemoteConnectionError).attempts).toBeLessThan(1_000);
    expect((error as RemoteConnectionError).url).toContain(`:${port}/v1/sessions/ses_x/events`);
  });

  it("a server killed mid-stream: the stream gives up with a RemoteConnectionError, the next call names the URL", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "pr-conn-"));
    dirs.push(cwd);
    const serve = await ServeProcess.start({ token: TOKEN, extra: ["--mock", "--root", tmpdir()] });
    const client = new RemoteClient({ baseUrl: serve.url, token: TOKEN });
    const session = await client.createSession({ provider: "codex", cwd });
    let received = 0;
    const iterate = async () => {
      const policy = { giveUpAfterMs: 1_000, maxAttempts: 1_000, initialDelayMs: 50 };
      for await (const _ of client.follow(session.id, { reconnect: policy, untilExit: false })) {
        received++;
        if (received === 1) serve.child.kill("SIGKILL");
      }
    };
    const error = await errorOf(iterate());
    expect(received).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(RemoteConnectionError);
    const call = await errorOf(client.getSession(session.id));
    expect(call).toBeInstanceOf(RemoteConnectionError);
    expect((call as RemoteConnectionError).url).toBe(`${serve.url}/v1/sessions/${session.id}`);
  }, 60_000);
});
