import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSubscribers } from "../../bench/subscribers.js";

// A server that refuses every request: a subscriber's follow fails at once (401 is not retried).
const refusing = createServer((_request, response) => {
  response.writeHead(401, { "content-type": "application/json" });
  response.end(JSON.stringify({ error: { code: "unauthorized", message: "no" } }));
});
let baseUrl = "";
const cache = process.env.TSX_DISABLE_CACHE;

beforeAll(async () => {
  // the worker registers tsx itself; its file cache would outlive the test in TMPDIR
  process.env.TSX_DISABLE_CACHE = "1";
  await new Promise<void>((done) => refusing.listen(0, "127.0.0.1", done));
  baseUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (cache === undefined) delete process.env.TSX_DISABLE_CACHE;
  else process.env.TSX_DISABLE_CACHE = cache;
  await new Promise((done) => refusing.close(done));
});

describe("the bench's subscribers in worker threads", () => {
  it("fail the pool's questions once a worker has stopped, instead of leaving the bench waiting", async () => {
    const pool = startSubscribers({
      connection: { baseUrl, token: "t" },
      ids: ["ses_a"],
      perSession: 1,
      threads: 1,
      onTurnEnd: () => undefined,
    });
    const ended = await pool.done.then(
      () => "ended",
      (error: Error) => error.message,
    );
    expect(ended).not.toBe("ended");
    await expect(pool.state()).rejects.toThrow();
    await expect(pool.latency()).rejects.toThrow();
    await pool.close();
  }, 30_000);
});
