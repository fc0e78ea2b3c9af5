import { afterEach, describe, expect, it } from "vitest";
import { RemoteApiError, RemoteClient, RemoteProtocolError, RemoteSession } from "../../src/client/index.js";
import { UnknownRequestError } from "../../src/contracts/driver.js";
import type { RuntimeEventType } from "../../src/contracts/event-types.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { sampleEvent } from "../support/sample-events.js";
import {
  type RouteReply,
  type ScriptedServer,
  type ScriptedServerOptions,
  type StreamConnection,
  startScriptedServer,
} from "./support/scripted-server.js";

// RemoteSession's own rules (errors, when `events` ends) against a scripted server; the real server runs it in
// test/client/real-server.test.ts and test/conformance/remote.conformance.test.ts.

const SESSION = "ses_a/b"; // a slash: ids are path-encoded
const ev = (sequence: number, type: RuntimeEventType = "content.delta"): RuntimeEvent =>
  sampleEvent(type, sequence, { sessionId: SESSION as RuntimeEvent["sessionId"] });
const FAST = { reconnect: { initialDelayMs: 10, maxDelayMs: 50, maxAttempts: 5 } };
const SUMMARY = {
  id: SESSION,
  provider: "codex",
  origin: "live",
  state: "starting",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  lastSequence: 0,
  openRequests: 0,
  exited: false,
};

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(
  onRoute: (method: string, path: string, body: string) => RouteReply | undefined,
  onStream?: ScriptedServerOptions["onStream"],
) {
  server = await startScriptedServer({
    onRoute: (r) => onRoute(r.method, r.path, r.body),
    ...(onStream === undefined ? {} : { onStream }),
  });
  return new RemoteClient({ baseUrl: server.baseUrl, token: "secret" });
}

describe("RemoteClient calls", () => {
  it("createDriver posts the body with the provider and returns a RemoteSession of the server's id", async () => {
    const client = await start((method, path) =>
      method === "POST" && path === "/v1/sessions" ? { status: 201, body: SUMMARY } : undefined,
    );
    const driver = await client.createDriver("codex", { cwd: "/tmp/x", model: "m" });
    expect(driver).toBeInstanceOf(RemoteSession);
    expect(driver.sessionId).toBe(SESSION);
    expect(driver.provider).toBe("codex");
    const request = server?.requests[0];
    expect(JSON.parse(request?.body ?? "")).toEqual({ cwd: "/tmp/x", model: "m", provider: "codex" });
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers.authorization).toBe("Bearer secret");
  });

  it("a 400 is a RemoteApiError with the server's message and field", async () => {
    const client = await start(() => ({
      status: 400,
      body: { error: "cwd must be absolute", field: "cwd" },
    }));
    const error = await client.createSession({ provider: "codex", cwd: "rel" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteApiError);
    expect(error).toMatchObject({ status: 400, field: "cwd", route: "POST /v1/sessions" });
    expect((error as Error).message).toBe("POST /v1/sessions: 400 cwd must be absolute (field cwd)");
  });

  it("an error body that is not the server's JSON keeps its start as the message", async () => {
    const client = await start(() => ({ status: 502, body: "<html>bad gateway</html>" }));
    const error = await client.listSessions().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502 });
    expect((error as Error).message).toContain("<html>bad gateway</html>");
  });

  it("a 200 whose body is not the documented JSON is a RemoteProtocolError", async () => {
    const client = await start(() => ({ status: 200, body: { sessions: [{ id: 1 }] } }));
    const error = await client.listSessions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteProtocolError);
  });

  it("paths encode the ids; readEvents pages through the stored events", async () => {
    const client = await start(() => undefined);
    server?.stored.push(...Array.from({ length: 2500 }, (_, i) => ev(i + 1)));
    const sequences: number[] = [];
    for await (const event of client.readEvents(SESSION, { after: 10 })) sequences.push(event.sequence);
    expect(sequences).toEqual(Array.from({ length: 2490 }, (_, i) => i + 11));
    expect(server?.requests.map((r) => r.path)).toEqual([
      "/v1/sessions/ses_a%2Fb/events?after=10&limit=1000",
      "/v1/sessions/ses_a%2Fb/events?after=1010&limit=1000",
      "/v1/sessions/ses_a%2Fb/events?after=2010&limit=1000",
      "/v1/sessions/ses_a%2Fb/events?after=2500&limit=1000",
    ]);
  });

  it("attach refuses an imported history (no agent to drive)", async () => {
    const client = await start(() => ({
      status: 200,
      body: { session: { ...SUMMARY, provider: "claude-code", origin: "import" }, view: {} },
    }));
    await expect(client.attach(SESSION)).rejects.toThrow(/claude-code history/);
  });
});

describe("RemoteSession", () => {
  it.each([404, 409])("respond maps a %i to UnknownRequestError", async (status) => {
    const client = await start(() => ({ status, body: { error: "no such request" } }));
    const driver = new RemoteSession(client, "codex", SESSION);
    await expect(driver.respond("req_1", { decision: "accept" })).rejects.toBeInstanceOf(UnknownRequestError);
    expect(server?.requests[0]?.path).toBe("/v1/sessions/ses_a%2Fb/requests/req_1");
  });

  it("respond passes other errors through as RemoteApiError", async () => {
    const client = await start(() => ({ status: 500, body: { error: "store failed" } }));
    const driver = new RemoteSession(client, "codex", SESSION);
    await expect(driver.respond("req_1", { decision: "accept" })).rejects.toBeInstanceOf(RemoteApiError);
  });

  it("sendTurn, interrupt and stop call their routes; a 409 turn is a RemoteApiError", async () => {
    let turns = 0;
    const client = await start((method, path) => {
      if (path.endsWith("/turns"))
        return turns++ === 0 ? { status: 202 } : { status: 409, body: { error: "a turn is running" } };
      if (path.endsWith("/interrupt")) return { status: 202, body: {} };
      if (method === "DELETE") return { status: 200, body: { ok: true } };
      return undefined;
    });
    const driver = new RemoteSession(client, "codex", SESSION);
    await driver.start();
    await driver.sendTurn({ text: "hi" });
    await expect(driver.sendTurn({ text: "again" })).rejects.toMatchObject({ status: 409 });
    await driver.interrupt();
    await driver.stop();
    expect(server?.requests.map((r) => `${r.method} ${r.path} ${r.body}`)).toEqual([
      // start() reads the provider's capabilities from the server's catalog
      "GET /v1/agents ",
      'POST /v1/sessions/ses_a%2Fb/turns {"text":"hi"}',
      'POST /v1/sessions/ses_a%2Fb/turns {"text":"again"}',
      "POST /v1/sessions/ses_a%2Fb/interrupt ",
      "DELETE /v1/sessions/ses_a%2Fb ",
    ]);
  });

  it("events ends at an exit; a turn sent at the exit (resuming the agent) keeps it going", async () => {
    const first = [ev(1, "session.started"), ev(2, "turn.started"), ev(3, "session.exited")];
    const resumed = [ev(4, "session.started"), ev(5, "turn.started"), ev(6, "session.exited")];
    let connection: StreamConnection | undefined;
    const client = await start(
      (_method, path) => {
        if (path.endsWith("/turns")) {
          // accepted; the resumed events are stored and streamed a little later
          setTimeout(() => {
            server?.stored.push(...resumed);
            for (const e of resumed) connection?.send(e);
          }, 100);
          return { status: 202 };
        }
        return undefined;
      },
      (c) => {
        connection = c;
        server?.stored.push(...first.filter((e) => e.sequence > c.after));
        for (const e of first.filter((e) => e.sequence > c.after)) c.send(e);
      },
    );
    const driver = new RemoteSession(client, "codex", SESSION, FAST);
    const seen: number[] = [];
    let resumedOnce = false;
    for await (const event of driver.events) {
      seen.push(event.sequence);
      if (event.type === "session.exited" && !resumedOnce) {
        resumedOnce = true;
        await driver.sendTurn({ text: "go on" });
      }
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    expect(driver.lastSequence).toBe(6);
  });

  it("after the loop ended at an exit, iterating events again continues after the last delivered event", async () => {
    const client = await start(
      () => undefined,
      (c) => {
        const all = [ev(1), ev(2, "session.exited")];
        if (server !== undefined && server.stored.length === 0) server.stored.push(...all);
        for (const e of all.filter((e) => e.sequence > c.after)) c.send(e);
        if (c.index === 1) {
          setTimeout(() => {
            const later = [ev(3, "session.started"), ev(4, "session.exited")];
            server?.stored.push(...later);
            for (const e of later) c.send(e);
          }, 50);
        }
      },
    );
    const driver = new RemoteSession(client, "codex", SESSION, FAST);
    const firstLoop: number[] = [];
    for await (const event of driver.events) firstLoop.push(event.sequence);
    const secondLoop: number[] = [];
    for await (const event of driver.events) secondLoop.push(event.sequence);
    expect(firstLoop).toEqual([1, 2]);
    expect(secondLoop).toEqual([3, 4]);
    expect(server?.streams[1]?.lastEventId).toBe("2");
  });

  it("stop() ends events at the exit even with a turn in the air", async () => {
    const client = await start(
      (method, path) => (path.endsWith("/turns") || method === "DELETE" ? { status: 202 } : undefined),
      (c) => {
        c.send(ev(1, "session.started"));
        setTimeout(() => c.send(ev(2, "session.exited")), 100);
      },
    );
    const driver = new RemoteSession(client, "codex", SESSION, FAST);
    const seen: number[] = [];
    const reading = (async () => {
      for await (const event of driver.events) seen.push(event.sequence);
    })();
    await driver.sendTurn({ text: "x" });
    await driver.stop();
    await reading;
    expect(seen).toEqual([1, 2]);
  });

  it("events is one iteration at a time", async () => {
    const client = await start(
      () => undefined,
      (c) => c.send(ev(1)),
    );
    const driver = new RemoteSession(client, "codex", SESSION, FAST);
    const first = driver.events[Symbol.asyncIterator]();
    await first.next();
    await expect(driver.events[Symbol.asyncIterator]().next()).rejects.toThrow(/already being iterated/);
    await first.return?.();
  });
});
