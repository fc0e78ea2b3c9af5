import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RemoteApiError, RemoteClient, type RemoteSession } from "../../src/client/index.js";
import { UnknownRequestError } from "../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { SCENARIO_PROMPTS, SHELL_COMMAND } from "../../src/mock-model/index.js";
import { verifyEvents } from "../../src/verify/index.js";
import { ServeProcess } from "../server/support/serve-process.js";

// The client against the real `serve --mock` (the built CLI: `npm run build` first), with a real Codex app server
// behind it: every route, the typed errors, and a server SIGKILLed under a live stream.

const cwds: string[] = [];
const cwd = async () => {
  const dir = await mkdtemp(join(tmpdir(), "pr-client-"));
  cwds.push(dir);
  return dir;
};

const TOKEN = "test-token-0123456789";
/** `serve --mock` rooted in the temp dir, where the tests make their session cwds. */
const startServe = (options: { port?: number; data?: string } = {}) =>
  ServeProcess.start({ ...options, token: TOKEN, extra: ["--mock", "--root", tmpdir()] });

let serve: ServeProcess;
let client: RemoteClient;
beforeAll(async () => {
  serve = await startServe();
  client = new RemoteClient({ baseUrl: serve.url, token: TOKEN });
});
afterAll(async () => {
  await serve?.stop();
  ServeProcess.removeDirs();
  await Promise.all(cwds.map((dir) => rm(dir, { recursive: true, force: true })));
});

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("RemoteClient against serve", () => {
  it("health needs no token; any other route with a wrong token is a 401 RemoteApiError", async () => {
    const stranger = new RemoteClient({ baseUrl: serve.url, token: "wrong" });
    expect((await stranger.health()).ok).toBe(true);
    const error = await errorOf(stranger.listSessions());
    expect(error).toBeInstanceOf(RemoteApiError);
    expect(error).toMatchObject({ status: 401, route: "GET /v1/sessions" });
  });

  it("a cwd outside --root is a 403, a bad body a 400 naming the field, an unknown session a 404", async () => {
    expect(await errorOf(client.createDriver("codex", { cwd: "/" }))).toMatchObject({ status: 403 });
    const bad = await errorOf(client.createSession({ provider: "acp" }));
    expect(bad).toMatchObject({ status: 400, field: "agent" });
    expect(await errorOf(client.getSession("ses_nope"))).toMatchObject({ status: 404 });
    expect(await errorOf(client.attach("ses_nope"))).toMatchObject({ status: 404 });
  });

  it("a Codex session as a RuntimeDriver: approval, output, a second answer is UnknownRequestError, the view", async () => {
    const driver = await client.createDriver("codex", { cwd: await cwd() });
    await driver.start();
    await driver.sendTurn({ text: SCENARIO_PROMPTS.shell });
    const events: RuntimeEvent[] = [];
    let late: unknown;
    for await (const event of driver.events) {
      events.push(event);
      if (event.type === "request.opened") {
        await driver.respond(event.requestId, { decision: "accept" });
        late = await errorOf(driver.respond(event.requestId, { decision: "accept" }));
      }
      if (event.type === "turn.completed") await driver.stop();
    }
    expect(late).toBeInstanceOf(UnknownRequestError);
    expect(verifyEvents(events).map((v) => v.message)).toEqual([]);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)?.type).toBe("session.exited");
    const { session, view } = await client.getSession(driver.sessionId);
    expect(session).toMatchObject({ id: driver.sessionId, provider: "codex", lastSequence: events.length });
    expect(view.items.find((item) => item.itemType === "command_execution")?.title).toBe(SHELL_COMMAND);
    expect((await client.listSessions()).map((s) => s.id)).toContain(driver.sessionId);
  });

  it("SIGKILL of the server mid-stream: the session's events resume after the restart, none lost or twice, and a turn inside the loop resumes the agent", async () => {
    const driver: RemoteSession = await client.createDriver("codex", { cwd: await cwd() });
    await driver.sendTurn({ text: SCENARIO_PROMPTS.long });
    const delivered: RuntimeEvent[] = [];
    let crashed = false;
    let resumed = false;
    const restarted: Promise<void>[] = [];
    for await (const event of driver.events) {
      delivered.push(event);
      if (!crashed && event.type === "content.delta" && delivered.length > 50) {
        crashed = true;
        const { port, data } = serve;
        restarted.push(
          serve.crash().then(async () => {
            serve = await startServe({ port, data });
          }),
        );
      }
      if (event.type === "session.exited" && !resumed) {
        // the restart closed what the crash left open; a new turn resumes the agent natively
        resumed = true;
        await Promise.all(restarted);
        await driver.sendTurn({ text: "mock:text after the crash" });
      } else if (resumed && event.type === "turn.completed") await driver.stop();
    }
    expect(crashed).toBe(true);
    const stored: RuntimeEvent[] = [];
    for await (const event of client.readEvents(driver.sessionId)) stored.push(event);
    expect(delivered.map((e) => e.sequence)).toEqual(stored.map((e) => e.sequence));
    expect(delivered).toEqual(stored);
    expect(delivered.map((e) => e.sequence)).toEqual(delivered.map((_, i) => i + 1));
    expect(verifyEvents(stored).map((v) => v.message)).toEqual([]);
    expect(stored.filter((e) => e.type === "session.exited")).toHaveLength(2);
    expect(stored.filter((e) => e.type === "turn.completed").map((e) => e.payload.state)).toEqual([
      "failed",
      "completed",
    ]);
  });

  it("fork, update, list with filters and purge: a fork is a RemoteSession; a 400 names an unknown turn", async () => {
    const tag = `client${Date.now()}`;
    const driver = await client.createDriver("codex", { cwd: await cwd() });
    const seen: RuntimeEvent[] = [];
    const reading = (async () => {
      for await (const event of driver.events) seen.push(event);
    })();
    await driver.sendTurn({ text: `mock:text heron${tag}` });
    while (!seen.some((e) => e.type === "turn.completed")) await new Promise((r) => setTimeout(r, 50));
    const turnId = seen.find((e) => e.type === "turn.completed")?.turnId as string;
    expect((await client.list({ q: `heron${tag}` })).sessions.map((s) => s.id)).toEqual([driver.sessionId]);
    expect(await errorOf(driver.fork({ afterTurnId: "turn_nope" }))).toMatchObject({
      status: 400,
      field: "afterTurnId",
    });
    const fork = await driver.fork({ afterTurnId: turnId });
    expect((await client.getSession(fork.sessionId)).session.parentId).toBe(driver.sessionId);
    const renamed = await client.update(fork.sessionId, { title: `Egret ${tag}`, archived: true });
    expect(renamed).toMatchObject({ title: `Egret ${tag}`, archived: true });
    expect((await client.list({ q: `egret` })).sessions).toEqual([]);
    expect((await client.list({ q: `egret`, archived: true })).sessions.map((s) => s.id)).toEqual([
      fork.sessionId,
    ]);
    await client.purge(fork.sessionId);
    expect(await errorOf(client.getSession(fork.sessionId))).toMatchObject({ status: 404 });
    await driver.stop();
    await reading;
  }, 120_000);
});
