import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import { ServeProcess } from "./support/serve-process.js";
import { requestsWith, sendTurn, storedEvents, turnsEnded, verifies } from "./support/stored-turns.js";

/**
 * Issue #33's done-when, through HTTP only: two turns, a fork after the first, a turn on the fork whose model
 * request holds the first turn and not the second, the parent's next turn holding both; then the server is
 * killed and the fork resumes natively like any session. The agents are the real Codex app-server and Claude
 * Code against the project's mock model (its request log outlives the server).
 */

const TOKEN = "fork-token";
let mock: MockModelServer;

beforeAll(async () => {
  mock = await startMockModel();
});
afterAll(async () => {
  await mock.close();
});
afterEach(() => ServeProcess.stopAll());
afterAll(() => ServeProcess.removeDirs());

describe("fork after a turn, over HTTP only", () => {
  for (const provider of ["codex", "claude"] as const) {
    it(provider, async () => {
      const tag = `${provider}${Date.now()}`;
      const [alpha, beta, gamma, delta, epsilon] = ["alpha", "beta", "gamma", "delta", "epsilon"].map(
        (word) => `${word}${tag}`,
      ) as [string, string, string, string, string];
      let server = await ServeProcess.start({ token: TOKEN, extra: ["--model-url", mock.baseUrl] });
      const created = await server.json<{ id: string }>("/v1/sessions", {
        method: "POST",
        // a setting of the parent goes on in the fork
        json: { provider, effort: "high" },
      });
      expect(created.status).toBe(201);
      const parent = created.body.id;
      await sendTurn(server, parent, `mock:text ${alpha}`);
      await turnsEnded(server, parent, 1);
      await sendTurn(server, parent, `mock:text ${beta}`);
      const parentEvents = await turnsEnded(server, parent, 2);
      const firstTurn = parentEvents.find((e) => e.type === "turn.started")?.turnId as string;

      // bad input: an unknown turn is a 400 naming it
      const unknown = await server.json<{ error: string; field: string }>(`/v1/sessions/${parent}/fork`, {
        method: "POST",
        json: { afterTurnId: "turn_nosuchturn" },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ field: "afterTurnId" });
      expect(unknown.body.error).toContain("turn_nosuchturn");

      const forked = await server.json<{ id: string; parentId: string }>(`/v1/sessions/${parent}/fork`, {
        method: "POST",
        json: { afterTurnId: firstTurn },
      });
      expect([forked.status, forked.body.parentId]).toEqual([201, parent]);
      const fork = forked.body.id;
      expect(fork).not.toBe(parent);

      await sendTurn(server, fork, `mock:text ${gamma}`);
      const forkEvents = await turnsEnded(server, fork, 1);
      const started = forkEvents.find((e) => e.type === "session.started");
      expect(started?.payload.forkedFrom).toEqual({ sessionId: parent, turnId: firstTurn });
      const forkSaw = requestsWith(mock, gamma);
      expect(forkSaw.length).toBeGreaterThan(0);
      for (const body of forkSaw) {
        expect(body).toContain(alpha);
        expect(body).not.toContain(beta);
        if (provider === "codex") expect(body).toContain('"effort":"high"');
      }

      // the parent is untouched: its next turn still holds both of its turns, and nothing of the fork
      await sendTurn(server, parent, `mock:text ${delta}`);
      await turnsEnded(server, parent, 3);
      const parentSaw = requestsWith(mock, delta);
      expect(parentSaw.length).toBeGreaterThan(0);
      for (const body of parentSaw) {
        expect(body).toContain(alpha);
        expect(body).toContain(beta);
        expect(body).not.toContain(gamma);
      }

      // the fork is in the list with its parent
      const listed = await server.json<{ sessions: Array<{ id: string; parentId?: string }> }>(
        "/v1/sessions",
      );
      expect(listed.body.sessions.find((s) => s.id === fork)?.parentId).toBe(parent);

      // SIGKILL: the restart closes the fork like any session, and a turn on it resumes it natively
      server.cli.child.kill("SIGKILL");
      await server.cli.exited;
      server = await ServeProcess.start({
        data: server.data,
        token: TOKEN,
        extra: ["--model-url", mock.baseUrl],
      });
      const closedAt = (await storedEvents(server, fork)).length;
      await sendTurn(server, fork, `mock:text ${epsilon}`);
      const resumed = await turnsEnded(server, fork, 2);
      expect(resumed.filter((e) => e.sequence > closedAt && e.type === "session.started")).toHaveLength(1);
      const resumedSaw = requestsWith(mock, epsilon);
      expect(resumedSaw.length).toBeGreaterThan(0);
      for (const body of resumedSaw) {
        expect(body).toContain(alpha);
        expect(body).toContain(gamma);
        expect(body).not.toContain(beta);
      }
      expect(resumed.map((e) => e.sequence)).toEqual(resumed.map((_, i) => i + 1));

      // verify passes on the fork's whole stream (and the parent's)
      expect((await server.fetch(`/v1/sessions/${fork}`, { method: "DELETE" })).status).toBe(200);
      expect((await server.fetch(`/v1/sessions/${parent}`, { method: "DELETE" })).status).toBe(200);
      verifies(server, await storedEvents(server, fork), "fork");
      verifies(server, await storedEvents(server, parent), "parent");
      expect(await server.stop()).toBe(143);
    }, 300_000);
  }
});
