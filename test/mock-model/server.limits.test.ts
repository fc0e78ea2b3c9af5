import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { brotliCompressSync, constants, createBrotliCompress, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { type MockModelServer, startMockModel } from "../../src/mock-model/server.js";
import { responsesRequest } from "./support/requests.js";

const servers: MockModelServer[] = [];
const sockets: Socket[] = [];
async function start(options: Parameters<typeof startMockModel>[0] = {}): Promise<MockModelServer> {
  const server = await startMockModel(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** `megabytes` MiB of zeros, brotli-compressed as a stream (the test never holds the inflated bytes). */
async function brotliBomb(megabytes: number): Promise<Buffer> {
  const zeros = Buffer.alloc(1024 * 1024);
  const source = Readable.from(
    (function* () {
      for (let index = 0; index < megabytes; index++) yield zeros;
    })(),
  );
  const compress = createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  return buffer(source.pipe(compress));
}

/**
 * POSTs `body` and resolves to the status, or to "closed" when the server closed the connection without an
 * answer (allowed for a refused body: it may hang up while the client is still sending).
 */
function post(url: string, body: Buffer, encoding: string): Promise<number | "closed"> {
  return new Promise((resolve) => {
    const request = httpRequest(
      url,
      { method: "POST", headers: { "content-encoding": encoding, "content-type": "application/json" } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", () => resolve("closed"));
    request.end(body);
  });
}

async function isUp(server: MockModelServer): Promise<boolean> {
  const response = await fetch(`${server.baseUrl}/`);
  return response.status === 200 && ((await response.json()) as { ok?: boolean }).ok === true;
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", () => {}); // a refused connection is reset; its "close" is what the tests wait for
    socket.once("error", reject);
    sockets.push(socket);
  });
}

function closedByPeer(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) resolve();
    socket.once("close", () => resolve());
    socket.resume();
  });
}

describe("mock model limits", () => {
  it("a brotli bomb (400 MiB of zeros in a few KB), sent 11 times at once, gets 413 each time; the server stays up", async () => {
    const bomb = await brotliBomb(400);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const server = await start();
    const url = `${server.baseUrl}/v1/responses`;
    const answers = await Promise.all(Array.from({ length: 11 }, () => post(url, bomb, "br")));
    for (const answer of answers) expect([413, "closed"]).toContain(answer);
    expect(answers).toContain(413);
    expect(await isUp(server)).toBe(true);
    expect(server.requests.every((record) => record.body === undefined)).toBe(true);
  });

  it("gzip and deflate bodies that inflate past maxBodyBytes get 413; a corrupt one 400; a fitting one is read", async () => {
    const server = await start({ maxBodyBytes: 1024 * 1024 });
    const url = `${server.baseUrl}/v1/responses`;
    const zeros = Buffer.alloc(8 * 1024 * 1024);
    expect(await post(url, gzipSync(zeros), "gzip")).toBe(413);
    expect(await post(url, deflateSync(zeros), "deflate")).toBe(413);
    expect(await post(url, brotliCompressSync(zeros), "br")).toBe(413);
    expect(await post(url, Buffer.from("not gzip at all"), "gzip")).toBe(400);
    const fitting = gzipSync(JSON.stringify(responsesRequest("mock:error-429")));
    expect(await post(url, fitting, "gzip")).toBe(429);
    expect(await isUp(server)).toBe(true);
  });

  it("an identity body past maxBodyBytes gets 413 (or a closed connection), and the server stays up", async () => {
    const server = await start({ maxBodyBytes: 64 * 1024 });
    const answer = await post(
      `${server.baseUrl}/v1/responses`,
      Buffer.alloc(4 * 1024 * 1024, "x"),
      "identity",
    );
    expect([413, "closed"]).toContain(answer);
    expect(await isUp(server)).toBe(true);
  });

  it("requests keeps no more than maxRecordedBodyBytes of bodies, letting the oldest go", async () => {
    const server = await start({ maxRecordedBodyBytes: 2_500 });
    const body = (tag: string, size: number) => JSON.stringify({ tag, pad: "p".repeat(size) });
    for (const [tag, size] of [
      ["a", 1_000],
      ["b", 1_000],
      ["c", 1_000],
      ["huge", 5_000],
    ] as const) {
      await fetch(`${server.baseUrl}/v1/nowhere`, { method: "POST", body: body(tag, size) });
    }
    expect(server.requests.map((record) => (record.body as { tag?: string } | undefined)?.tag)).toEqual([
      undefined,
      "b",
      "c",
      undefined,
    ]);
    expect(server.requests.map((record) => record.bodyDropped)).toEqual([true, false, false, true]);
    expect(server.requests[3]?.bodyBytes).toBe(body("huge", 5_000).length);
  });

  it("connections past maxConnections are closed as they arrive; the server answers again once one goes", async () => {
    const server = await start({ maxConnections: 2 });
    const held = [await openSocket(server.port), await openSocket(server.port)];
    const extra = await openSocket(server.port).catch(() => undefined);
    if (extra !== undefined) await closedByPeer(extra);
    await expect(fetch(`${server.baseUrl}/`)).rejects.toThrow();
    held[0]?.destroy();
    // the server learns of the closed socket asynchronously: try until it takes a connection again
    let up = false;
    while (!up) up = await isUp(server).catch(() => false);
    expect(up).toBe(true);
  });

  it("a connection that sends nothing is closed after idleTimeoutMs; one that streams is not", async () => {
    const server = await start({ idleTimeoutMs: 300 });
    const idle = await openSocket(server.port);
    await closedByPeer(idle);
    expect(idle.destroyed).toBe(true);
    // the long scenario streams for about a second, far past the idle timeout, with bytes flowing throughout
    const response = await fetch(`${server.baseUrl}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(responsesRequest("mock:long")),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("response.completed");
  });
});
