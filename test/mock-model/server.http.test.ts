import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { type MockModelServer, startMockModel } from "../../src/mock-model/server.js";
import { messagesRequest, responsesRequest } from "./support/requests.js";
import { postSse } from "./support/sse-client.js";

const servers: MockModelServer[] = [];
async function start(options: Parameters<typeof startMockModel>[0] = {}): Promise<MockModelServer> {
  const server = await startMockModel(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("mock model HTTP surface", () => {
  it("listens on 127.0.0.1 only", async () => {
    const server = await start();
    expect(server.baseUrl).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
  });

  it("answers HEAD / and GET / with 200", async () => {
    const server = await start();
    expect((await fetch(`${server.baseUrl}/`, { method: "HEAD" })).status).toBe(200);
    const get = await fetch(`${server.baseUrl}/`);
    expect(get.status).toBe(200);
    expect(await get.json()).toMatchObject({ ok: true });
  });

  it("answers unknown paths with a 404 JSON error instead of hanging", async () => {
    const server = await start();
    const response = await fetch(`${server.baseUrl}/v1/chat/completions`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining("no route") } });
    expect((await fetch(`${server.baseUrl}/v1/models`)).status).toBe(404);
  });

  it("rejects a body that is not JSON with 400", async () => {
    const server = await start();
    const response = await fetch(`${server.baseUrl}/v1/messages`, { method: "POST", body: "not json" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });

  it("reads gzip-compressed request bodies", async () => {
    const server = await start();
    const response = await fetch(`${server.baseUrl}/v1/responses`, {
      method: "POST",
      headers: { "content-encoding": "gzip", "content-type": "application/json" },
      body: gzipSync(JSON.stringify(responsesRequest("mock:error-429"))),
    });
    expect(response.status).toBe(429);
  });

  it("records every request with its parsed body and the scenario it got", async () => {
    const server = await start();
    await postSse(`${server.baseUrl}/v1/messages?beta=true`, messagesRequest("mock:shell"));
    await fetch(`${server.baseUrl}/`, { method: "HEAD" });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/messages?beta=true",
      scenario: "shell",
      status: 200,
      body: { model: "claude-sonnet-4-5" },
      headers: { "content-type": "application/json" },
    });
    expect(server.requests[1]).toMatchObject({
      method: "HEAD",
      path: "/",
      scenario: undefined,
      body: undefined,
    });
  });

  it("keeps only the latest records", async () => {
    const server = await start({ maxRecordedRequests: 2 });
    for (const path of ["/a", "/b", "/c"]) await fetch(`${server.baseUrl}${path}`);
    expect(server.requests.map((record) => record.path)).toEqual(["/b", "/c"]);
  });

  it("answers 503 once the request cap is reached", async () => {
    const server = await start({ maxRequests: 2 });
    const statuses = [];
    for (let index = 0; index < 3; index++) {
      statuses.push((await postSse(`${server.baseUrl}/v1/responses`, responsesRequest("hi"))).status);
    }
    expect(statuses).toEqual([200, 200, 503]);
  });

  it("closes itself after its time to live", async () => {
    const server = await start({ ttlMs: 50 });
    await server.closed;
    await expect(fetch(`${server.baseUrl}/`)).rejects.toThrow();
  });

  it("close() ends open keep-alive connections and can be called twice", async () => {
    const server = await start();
    await fetch(`${server.baseUrl}/`, { headers: { connection: "keep-alive" } });
    await server.close();
    await server.close();
    await expect(fetch(`${server.baseUrl}/`)).rejects.toThrow();
  });

  it("options.scenario forces a scenario and options.script overrides it", async () => {
    const forced = await start({ scenario: "error-500" });
    expect((await postSse(`${forced.baseUrl}/v1/responses`, responsesRequest("mock:text"))).status).toBe(500);
    const scripted = await start({
      script: (facts) =>
        facts.api === "openai-responses" ? { kind: "error", status: 429, label: "text" } : undefined,
    });
    expect((await postSse(`${scripted.baseUrl}/v1/responses`, responsesRequest("mock:text"))).status).toBe(
      429,
    );
    expect((await postSse(`${scripted.baseUrl}/v1/messages`, messagesRequest("mock:text"))).status).toBe(200);
  });
});
