import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { verifyEvents } from "../../src/verify/index.js";
import { CliProcess, privateTmp, processesWithTmpdir } from "../cli/support/cli-process.js";
import { ServeProcess } from "./support/serve-process.js";
import { SseReader } from "./support/sse-reader.js";

afterEach(() => ServeProcess.stopAll());
afterAll(() => ServeProcess.removeDirs());

const until = async (condition: () => boolean, timeoutMs = 10_000) => {
  for (let waited = 0; waited < timeoutMs && !condition(); waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  return condition();
};

describe("serve: token, host, CORS", () => {
  it("refuses a non-loopback --host without an explicit token (exit 2), before making DATA", async () => {
    const tmp = privateTmp();
    const data = join(tmp, "never");
    const cli = new CliProcess(["serve", "--host", "0.0.0.0", "--port", "0", "--data", data], { tmp });
    expect(await cli.exited).toBe(2);
    expect(cli.stderr).toMatch(/--host 0\.0\.0\.0 is reachable from other machines/);
    expect(cli.stdout).not.toMatch(/listening/);
    expect(existsSync(data)).toBe(false);
  });

  it("refuses a non-loopback --host with a token under 32 characters; serves it with one of 32 from --token-file", async () => {
    const tmp = privateTmp();
    const data = join(tmp, "data");
    const short = new CliProcess(["serve", "--host", "0.0.0.0", "--port", "0", "--data", data], {
      tmp,
      env: { PROVIDER_RUNTIME_TOKEN: "x".repeat(31) },
    });
    expect(await short.exited).toBe(2);
    expect(short.stderr).toMatch(/at least 32 characters/);
    expect(existsSync(data)).toBe(false);
    const tokenFile = join(tmp, "token.txt");
    writeFileSync(tokenFile, `${"k".repeat(32)}\n`, { mode: 0o600 });
    const server = await ServeProcess.start({
      data,
      extra: ["--host", "0.0.0.0", "--token-file", tokenFile],
    });
    const port = new URL(server.url).port;
    const health = await fetch(`http://127.0.0.1:${port}/v1/sessions`, {
      headers: { authorization: `Bearer ${"k".repeat(32)}` },
    });
    expect(health.status).toBe(200);
    expect(server.stderr).not.toMatch(/deprecated/);
    expect(existsSync(join(data, "token"))).toBe(false);
    expect(await server.stop()).toBe(143);
  });

  it("--token-file gives the token, --token still works but warns; a bad token file is a usage error", async () => {
    const tmp = privateTmp();
    const tokenFile = join(tmp, "token.txt");
    writeFileSync(tokenFile, "from-file\n", { mode: 0o600 });
    const fromFile = await ServeProcess.start({ extra: ["--token-file", tokenFile] });
    expect((await fromFile.fetch("/v1/sessions", { auth: "from-file" })).status).toBe(200);
    expect((await fromFile.fetch("/v1/sessions", { auth: "from-fil" })).status).toBe(401);
    expect(fromFile.stderr).not.toMatch(/deprecated/);
    await fromFile.stop();
    const fromFlag = await ServeProcess.start({ extra: ["--token", "from-flag"] });
    expect((await fromFlag.fetch("/v1/sessions", { auth: "from-flag" })).status).toBe(200);
    expect(fromFlag.stderr).toMatch(/--token is deprecated: every local user can read it/);
    await fromFlag.stop();
    writeFileSync(join(tmp, "empty"), "\n");
    for (const args of [
      ["--token-file", join(tmp, "missing")],
      ["--token-file", join(tmp, "empty")],
      ["--token-file", tokenFile, "--token", "both"],
    ]) {
      const bad = new CliProcess(["serve", "--port", "0", "--data", join(tmp, "never"), ...args], { tmp });
      expect(await bad.exited, args.join(" ")).toBe(2);
      expect(bad.stderr).toMatch(/--token-file/);
    }
    expect(existsSync(join(tmp, "never"))).toBe(false);
  });

  it("generates a token once into DATA/token (0600) and keeps it; PROVIDER_RUNTIME_TOKEN overrides it", async () => {
    const first = await ServeProcess.start();
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const file = join(first.data, "token");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = readFileSync(file, "utf8").trim();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect((await first.fetch("/v1/sessions", { auth: null })).status).toBe(401);
    expect((await first.fetch("/v1/sessions", { auth: token })).status).toBe(200);
    expect(await first.stop("SIGINT")).toBe(130);

    const second = await ServeProcess.start({ data: first.data });
    expect((await second.fetch("/v1/sessions", { auth: token })).status).toBe(200);
    expect(await second.stop()).toBe(143);

    const third = await ServeProcess.start({ data: first.data, env: { PROVIDER_RUNTIME_TOKEN: "from-env" } });
    expect((await third.fetch("/v1/sessions", { auth: token })).status).toBe(401);
    expect((await third.fetch("/v1/sessions", { auth: "from-env" })).status).toBe(200);
    expect(await third.stop()).toBe(143);
  });

  it("--durability: full and normal start; anything else is a usage error (exit 2)", async () => {
    const tmp = privateTmp();
    const data = join(tmp, "never");
    const bad = new CliProcess(["serve", "--port", "0", "--durability", "fast", "--data", data], { tmp });
    expect(await bad.exited).toBe(2);
    expect(bad.stderr).toMatch(/--durability must be full or normal, not "fast"/);
    expect(existsSync(data)).toBe(false);
    for (const durability of ["full", "normal"]) {
      const server = await ServeProcess.start({ token: "t", extra: ["--durability", durability] });
      expect((await server.fetch("/v1/sessions")).status).toBe(200);
      expect(await server.stop()).toBe(143);
    }
  });

  it("--cors ORIGIN: that origin only gets CORS headers", async () => {
    const server = await ServeProcess.start({ token: "t", extra: ["--cors", "http://ui.example"] });
    const allowed = await server.fetch("/v1/sessions", { headers: { origin: "http://ui.example" } });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://ui.example");
    const preflight = await server.fetch("/v1/sessions", {
      method: "OPTIONS",
      auth: null,
      headers: { origin: "http://ui.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/authorization/i);
    const other = await server.fetch("/v1/sessions", { headers: { origin: "http://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).not.toBe("http://evil.example");
    expect(await server.stop()).toBe(143);
  });
});

describe("serve under SIGINT / SIGTERM with a turn running (real codex, mock model)", () => {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    it(`${signal}: every session stopped, session.exited stored, exit ${code}, no process left`, async () => {
      const server = await ServeProcess.start({ token: "t", extra: ["--mock"] });
      const created = await server.json<{ id: string }>("/v1/sessions", {
        method: "POST",
        json: { provider: "codex" },
      });
      const idle = await server.json<{ id: string }>("/v1/sessions", {
        method: "POST",
        json: { provider: "claude" },
      });
      const id = created.body.id;
      const sse = new SseReader(`${server.url}/v1/sessions/${id}/events`, { authorization: "Bearer t" });
      await server.fetch(`/v1/sessions/${id}/turns`, { method: "POST", json: { text: "mock:long go" } });
      await sse.until((r) => r.events().some((e) => e.type === "content.delta"));
      expect(processesWithTmpdir(server.cli.tmp).length).toBeGreaterThan(2);
      expect(await server.stop(signal)).toBe(code);
      expect(server.cli.stderr).toMatch(new RegExp(`${signal}: stopping every session`));
      expect(server.cli.stderr).not.toMatch(/\n\s+at /);
      const store = await openSqliteStore({ dataDir: server.data });
      for (const sessionId of [id, idle.body.id]) {
        const events: RuntimeEvent[] = await store.readEvents(sessionId, 0, 100_000);
        expect(events.at(-1)?.type).toBe("session.exited");
        expect(verifyEvents(events)).toEqual([]);
        expect(await store.getSession(sessionId)).toMatchObject({ exited: true, openRequests: 0 });
      }
      await store.close();
      expect(await until(() => processesWithTmpdir(server.cli.tmp).length === 0)).toBe(true);
      sse.close();
    });
  }
});
