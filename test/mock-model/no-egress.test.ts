import { request } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockModelServer, startMockModel } from "../../src/mock-model/server.js";
import { makeScratch, runClaudeQuery, runCodexExec, type Scratch } from "./support/agents.js";
import { proxyEnv, type RecordingProxy, startRecordingProxy } from "./support/recording-proxy.js";

let server: MockModelServer;
let proxy: RecordingProxy;
let scratch: Scratch;
beforeAll(async () => {
  server = await startMockModel();
  proxy = await startRecordingProxy(server.port);
  scratch = await makeScratch();
});
beforeEach(() => {
  proxy.targets.splice(0);
});
afterAll(async () => {
  await proxy.close();
  await server.close();
  await scratch.remove();
});

const foreignTargets = () => proxy.targets.filter((target) => target !== `127.0.0.1:${server.port}`);

/** Sends one request through the proxy and resolves to the status it answered. */
function throughProxy(method: "GET" | "CONNECT", path: string): Promise<number> {
  const url = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, method, path });
    outgoing.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on("connect", (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("the recording proxy", () => {
  it("records every target, forwards to the mock and refuses anything else", async () => {
    expect(await throughProxy("GET", `http://127.0.0.1:${server.port}/`)).toBe(200);
    expect(await throughProxy("GET", "http://example.invalid/")).toBe(403);
    expect(await throughProxy("CONNECT", "api.anthropic.com:443")).toBe(403);
    expect(await throughProxy("CONNECT", `127.0.0.1:${server.port}`)).toBe(200);
    expect(foreignTargets()).toEqual(["example.invalid:80", "api.anthropic.com:443"]);
  });
});

/** Programs may bypass the proxy for loopback, which is fine: the claim is that no other host is attempted. */
describe("nothing but the mock model is contacted", () => {
  it("codex exec, through the shell scenario", async () => {
    const before = server.requests.length;
    const result = await runCodexExec(server.baseUrl, "mock:shell", scratch, proxyEnv(proxy.url));
    expect(result.exitCode, result.stderr).toBe(0);
    expect(server.requests.length - before).toBeGreaterThanOrEqual(2);
    expect(foreignTargets()).toEqual([]);
  });

  it("the Claude Agent SDK, through the shell scenario", async () => {
    const before = server.requests.length;
    const run = await runClaudeQuery(server.baseUrl, "mock:shell", scratch, proxyEnv(proxy.url));
    expect(run.result).toBe("mock final answer: shell (saw mock-shell-output)");
    expect(server.requests.length - before).toBeGreaterThanOrEqual(2);
    expect(foreignTargets()).toEqual([]);
  });
});
