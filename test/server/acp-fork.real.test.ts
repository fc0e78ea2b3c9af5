import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import { ServeProcess } from "./support/serve-process.js";
import { sendTurn, storedEvents, turnsEnded, verifies } from "./support/stored-turns.js";

/**
 * ACP's `session/fork` through HTTP only, with the real adapters against the project's mock model: the fork copies
 * the whole conversation (so it may end only with the last turn), its agent holds both turns and the parent
 * nothing of the fork's; an agent that does not advertise `session/fork` is a 422 naming it, with nothing left.
 */

const TOKEN = "acp-fork-token";
let mock: MockModelServer;

beforeAll(async () => {
  mock = await startMockModel();
});
afterAll(async () => {
  await mock.close();
});
afterEach(() => ServeProcess.stopAll());
afterAll(() => ServeProcess.removeDirs());

interface Refusal {
  error: string;
  reason: string;
}

function start(): Promise<ServeProcess> {
  return ServeProcess.start({ token: TOKEN, extra: ["--model-url", mock.baseUrl] });
}

async function create(server: ServeProcess, agent: string): Promise<string> {
  const created = await server.json<{ id: string }>("/v1/sessions", {
    method: "POST",
    json: { provider: "acp", agent: [agent] },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

/**
 * The model requests of the turn that sent `word`. The agents also name a session with a side request quoting a
 * prompt, asking for a structured answer (Anthropic's `output_config.format`, the Responses API's `text.format`
 * json_schema): not a turn's request, so not one whose history counts.
 */
function turnRequestsWith(word: string): string[] {
  const sideRequest = (body: unknown) => {
    const request = body as { output_config?: { format?: unknown }; text?: { format?: { type?: unknown } } };
    return request?.output_config?.format !== undefined || request?.text?.format?.type === "json_schema";
  };
  return mock.requests
    .filter((r) => !sideRequest(r.body))
    .map((r) => JSON.stringify(r.body ?? ""))
    .filter((body) => body.includes(word));
}

/** The per-session dirs under the data dir (state and work dirs). */
function sessionDirs(server: ServeProcess): string[] {
  const under = (dir: string) => {
    try {
      return readdirSync(join(server.data, dir)).map((name) => `${dir}/${name}`);
    } catch {
      return [];
    }
  };
  return [...under("sessions"), ...under("work")].sort();
}

describe("ACP session/fork over HTTP only", () => {
  // by default (the whole conversation), or at the last turn named; opencode keeps its sessions in a database
  for (const agent of ["claude-agent-acp", "codex-acp", "opencode"] as const) {
    it(agent, async () => {
      const tag = `${agent.replace(/-/g, "")}${Date.now()}`;
      const words = ["alpha", "beta", "gamma", "delta", "epsilon"].map((w) => `${w}${tag}`);
      const [alpha, beta, gamma, delta, epsilon] = words as [string, string, string, string, string];
      let server = await start();
      const parent = await create(server, agent);
      await sendTurn(server, parent, `mock:text ${alpha}`);
      await turnsEnded(server, parent, 1);
      await sendTurn(server, parent, `mock:text ${beta}`);
      const parentEvents = await turnsEnded(server, parent, 2);
      const turns = parentEvents.filter((e) => e.type === "turn.started").map((e) => e.turnId as string);
      const [firstTurn, lastTurn] = turns as [string, string];

      // an earlier turn: ACP's session/fork has no fork point
      const earlier = await server.json<Refusal>(`/v1/sessions/${parent}/fork`, {
        method: "POST",
        json: { afterTurnId: firstTurn },
      });
      expect(earlier.status).toBe(422);
      expect(earlier.body.error).toBe("unsupported");
      expect(earlier.body.reason).toContain("copies the whole conversation");
      expect(earlier.body.reason).toContain(firstTurn);
      // an unknown turn is still a 400 naming it
      const unknown = await server.json<{ error: string; field: string }>(`/v1/sessions/${parent}/fork`, {
        method: "POST",
        json: { afterTurnId: "turn_nosuchturn" },
      });
      expect([unknown.status, unknown.body.field]).toEqual([400, "afterTurnId"]);
      expect(unknown.body.error).toContain("turn_nosuchturn");

      const body: { afterTurnId?: string } = agent === "codex-acp" ? { afterTurnId: lastTurn } : {};
      const forked = await server.json<{ id: string; parentId: string }>(`/v1/sessions/${parent}/fork`, {
        method: "POST",
        json: body,
      });
      expect([forked.status, forked.body.parentId], JSON.stringify(forked.body)).toEqual([201, parent]);
      const fork = forked.body.id;

      await sendTurn(server, fork, `mock:text ${gamma}`);
      const forkEvents = await turnsEnded(server, fork, 1);
      const started = forkEvents.find((e) => e.type === "session.started");
      expect(started?.payload.forkedFrom).toEqual({
        sessionId: parent,
        ...(body.afterTurnId === undefined ? {} : { turnId: lastTurn }),
      });
      const forkSaw = turnRequestsWith(gamma);
      expect(forkSaw.length).toBeGreaterThan(0);
      for (const request of forkSaw) {
        expect(request).toContain(alpha);
        expect(request).toContain(beta);
      }

      // the parent is untouched: its next turn holds its own turns and nothing of the fork
      await sendTurn(server, parent, `mock:text ${delta}`);
      await turnsEnded(server, parent, 3);
      const parentSaw = turnRequestsWith(delta);
      expect(parentSaw.length).toBeGreaterThan(0);
      for (const request of parentSaw) {
        expect(request).toContain(alpha);
        expect(request).toContain(beta);
        expect(request).not.toContain(gamma);
      }

      // SIGKILL: after the restart a turn on the fork resumes the fork's own session (session/load), not the parent's
      server.cli.child.kill("SIGKILL");
      await server.cli.exited;
      server = await ServeProcess.start({
        data: server.data,
        token: TOKEN,
        extra: ["--model-url", mock.baseUrl],
      });
      await sendTurn(server, fork, `mock:text ${epsilon}`);
      const resumed = await turnsEnded(server, fork, 2);
      expect(resumed.map((e) => e.sequence)).toEqual(resumed.map((_, i) => i + 1));
      const resumedSaw = turnRequestsWith(epsilon);
      expect(resumedSaw.length).toBeGreaterThan(0);
      for (const request of resumedSaw) {
        expect(request).toContain(alpha);
        expect(request).toContain(beta);
        expect(request).toContain(gamma);
        expect(request).not.toContain(delta);
      }

      expect((await server.fetch(`/v1/sessions/${fork}`, { method: "DELETE" })).status).toBe(200);
      expect((await server.fetch(`/v1/sessions/${parent}`, { method: "DELETE" })).status).toBe(200);
      verifies(server, await storedEvents(server, fork), "fork");
      verifies(server, await storedEvents(server, parent), "parent");
      expect(await server.stop()).toBe(143);
    }, 300_000);
  }

  it("an agent without session/fork (copilot): 422 naming it, nothing left of the fork", async () => {
    const server = await start();
    const parent = await create(server, "copilot");
    await sendTurn(server, parent, "mock:text alpha");
    await turnsEnded(server, parent, 1);
    const before = sessionDirs(server);
    const refused = await server.json<Refusal>(`/v1/sessions/${parent}/fork`, { method: "POST", json: {} });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe("unsupported");
    expect(refused.body.reason).toContain("Copilot");
    expect(refused.body.reason).toContain("session/fork");
    const listed = await server.json<{ sessions: Array<{ id: string }> }>("/v1/sessions");
    expect(listed.body.sessions.map((s) => s.id)).toEqual([parent]);
    expect(sessionDirs(server)).toEqual(before);
    expect(await server.stop()).toBe(143);
  }, 300_000);
});
