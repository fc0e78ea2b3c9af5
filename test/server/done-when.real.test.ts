import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type MockModelServer, SHELL_MARKER_OUTPUT, startMockModel } from "../../src/mock-model/index.js";
import { CLI, processesWithTmpdir } from "../cli/support/cli-process.js";
import { ServeProcess } from "./support/serve-process.js";
import { SseReader } from "./support/sse-reader.js";

/**
 * Issue #19's done-when script. The client side is HTTP only: fetch and the test's own SSE reader, no import of
 * the project's code. The model side is the project's mock model, started here so that its request log outlives
 * the server (`serve --model-url`). The agents are the real Codex app-server and Claude Code.
 */

interface Event {
  sequence: number;
  type: string;
  sessionId: string;
  requestId?: string;
  payload: Record<string, unknown>;
}

const TOKEN = "done-when-token";
const auth = { authorization: `Bearer ${TOKEN}` };
let mock: MockModelServer;

beforeAll(async () => {
  mock = await startMockModel();
});
afterAll(async () => {
  await mock.close();
});

afterEach(() => ServeProcess.stopAll());
afterAll(() => ServeProcess.removeDirs());

const until = async (condition: () => boolean, timeoutMs = 15_000) => {
  for (let waited = 0; waited < timeoutMs && !condition(); waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  return condition();
};
const count = (reader: SseReader, type: string) =>
  reader.events<Event>().filter((e) => e.type === type).length;

async function allStoredEvents(server: ServeProcess, id: string): Promise<Event[]> {
  const events: Event[] = [];
  for (let after = 0; ; ) {
    const { body } = await server.json<{ events: Event[]; next: number }>(
      `/v1/sessions/${id}/events?after=${after}&limit=1000`,
    );
    if (body.events.length === 0) return events;
    events.push(...body.events);
    after = body.next;
  }
}

async function turn(server: ServeProcess, id: string, text: string): Promise<void> {
  const response = await server.fetch(`/v1/sessions/${id}/turns`, { method: "POST", json: { text } });
  const answer = response.status === 202 ? "" : `${await response.text()}\n${server.cli.stderr}`;
  expect([text, response.status, answer]).toEqual([text, 202, ""]);
}

describe("a session over HTTP only: approve, interrupt, second turn, stop, SIGKILL, restore, native resume", () => {
  for (const provider of ["codex", "claude"] as const) {
    it(provider, async () => {
      let server = await ServeProcess.start({ token: TOKEN, extra: ["--model-url", mock.baseUrl] });
      const created = await server.json<{ id: string; state: string }>("/v1/sessions", {
        method: "POST",
        json: { provider },
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const first = new SseReader(`${server.url}/v1/sessions/${id}/events`, auth);

      // a shell command that needs approval; its output comes back
      const marker = `remember-${provider}-${Date.now()}`;
      await turn(server, id, `mock:shell ${marker}`);
      await first.until((r) => count(r, "request.opened") === 1);
      const opened = first.events<Event>().find((e) => e.type === "request.opened") as Event;
      const answered = await server.fetch(`/v1/sessions/${id}/requests/${opened.requestId}`, {
        method: "POST",
        json: { decision: "accept" },
      });
      expect(answered.status).toBe(200);
      await first.until((r) => count(r, "turn.completed") === 1);
      const output = first
        .events<Event>()
        .filter((e) => e.type === "content.delta" || e.type === "item.completed" || e.type === "item.updated")
        .map((e) => JSON.stringify(e.payload))
        .join("");
      expect(output).toContain(SHELL_MARKER_OUTPUT);
      expect(first.events<Event>().find((e) => e.type === "request.resolved")?.payload).toMatchObject({
        decision: "accept",
      });

      // a long turn, interrupted
      const deltas = (r: typeof first) => r.events<Event>().filter((e) => e.type === "content.delta").length;
      const deltasBefore = deltas(first);
      await turn(server, id, "mock:long a long answer");
      await first.until((r) => deltas(r) > deltasBefore + 5);
      expect((await server.fetch(`/v1/sessions/${id}/interrupt`, { method: "POST" })).status).toBe(202);
      await first.until((r) => count(r, "turn.completed") + count(r, "turn.aborted") === 2);
      const interrupted = first
        .events<Event>()
        .filter((e) => e.type === "turn.completed" || e.type === "turn.aborted")[1];
      expect(interrupted?.type === "turn.aborted" || interrupted?.payload.state === "interrupted").toBe(true);

      // a second prompt, then stop
      await turn(server, id, "mock:text the second turn");
      await first.until((r) => count(r, "turn.completed") + count(r, "turn.aborted") === 3);
      const stopped = await server.json<{ exited: boolean }>(`/v1/sessions/${id}`, { method: "DELETE" });
      expect(stopped).toMatchObject({ status: 200, body: { exited: true } });
      await first.until((r) => count(r, "session.exited") === 1);

      // a turn on the stopped session resumes the agent natively; the server is killed while it waits for approval
      await turn(server, id, "mock:shell once more");
      await first.until((r) => count(r, "request.opened") === 2);
      expect(count(first, "session.started")).toBe(2);
      const agents = server.cli.tmp;
      server.cli.child.kill("SIGKILL");
      await server.cli.exited;
      await first.ended;
      // what this client received before the connection died: it reconnects from there
      const lastSeen = Number(first.messages.at(-1)?.id);
      // the agents go with the server (their process guard), and no temp dir of theirs stays
      expect(await until(() => processesWithTmpdir(agents).length === 0)).toBe(true);

      // restart: what the crash left open is closed; a reconnect gets exactly the events it missed
      server = await ServeProcess.start({
        data: server.data,
        token: TOKEN,
        extra: ["--model-url", mock.baseUrl],
      });
      await server.cli.waitFor("err", /closed 1 session\(s\) a crash had left open/, { timeoutMs: 5_000 });
      const stored = await allStoredEvents(server, id);
      const again = new SseReader(`${server.url}/v1/sessions/${id}/events`, {
        ...auth,
        "last-event-id": String(lastSeen),
      });
      await again.until((r) => r.messages.length === stored.length - lastSeen);
      const before = first.events<Event>().map((e) => e.sequence);
      const after = again.events<Event>().map((e) => e.sequence);
      expect([...before, ...after]).toEqual(stored.map((_, i) => i + 1));
      expect(again.messages.map((m) => m.data)).toEqual(stored.slice(lastSeen).map((e) => JSON.stringify(e)));
      expect(stored.at(-1)?.type).toBe("session.exited");
      expect(stored.filter((e) => e.type === "request.resolved").at(-1)?.payload).toMatchObject({
        decision: "cancel",
      });
      const listed = await server.json<{
        sessions: Array<{ id: string; exited: boolean; openRequests: number }>;
      }>("/v1/sessions");
      expect(listed.body.sessions.find((s) => s.id === id)).toMatchObject({ exited: true, openRequests: 0 });

      // a new turn resumes natively: same canonical session, the sequence goes on, the model sees the first turn
      const requestsBefore = mock.requests.length;
      await turn(server, id, "mock:text after the crash");
      const closedAt = stored.length;
      await again.until((r) =>
        r.events<Event>().some((e) => e.type === "turn.completed" && e.sequence > closedAt),
      );
      // the turn the crash cut short is history: only the new turn opens, it ends, and the session is idle again
      // (after the turn's end: the resume itself makes the session ready once, before the turn starts)
      const idleAgain = (events: Event[]) => {
        const end = events.find((e) => e.type === "turn.completed" && e.sequence > closedAt)?.sequence;
        return (
          end !== undefined &&
          events.some(
            (e) => e.type === "session.state.changed" && e.sequence > end && e.payload.state === "ready",
          )
        );
      };
      await again.until((r) => idleAgain(r.events<Event>()));
      const resumed = again.events<Event>();
      const later = resumed.filter((e) => e.sequence > closedAt);
      expect(later.filter((e) => e.type === "turn.started")).toHaveLength(1);
      expect(later.filter((e) => e.type === "turn.completed")).toHaveLength(1);
      const states = later.filter((e) => e.type === "session.state.changed");
      expect(states.at(-1)?.payload.state).toBe("ready");
      const detail = await server.json<{ session: { state: string } }>(`/v1/sessions/${id}`);
      expect(detail.body.session.state).toBe("ready");
      expect(resumed.every((e) => e.sessionId === id)).toBe(true);
      expect(resumed.map((e) => e.sequence)).toEqual(resumed.map((_, i) => lastSeen + 1 + i));
      const modelSaw = mock.requests
        .slice(requestsBefore)
        .map((r) => JSON.stringify(r.body ?? ""))
        .filter((body) => body.includes("after the crash"));
      expect(modelSaw.length).toBeGreaterThan(0);
      expect(modelSaw.some((body) => body.includes(marker))).toBe(true);

      // verify passes on the whole stored stream
      expect((await server.fetch(`/v1/sessions/${id}`, { method: "DELETE" })).status).toBe(200);
      // the second session.exited it sees: the first closed the crashed run
      await again.until((r) => count(r, "session.exited") === 2);
      again.close();
      const whole = await allStoredEvents(server, id);
      expect(whole.map((e) => e.sequence)).toEqual(whole.map((_, i) => i + 1));
      const file = join(server.data, "whole-stream.jsonl");
      writeFileSync(file, `${whole.map((e) => JSON.stringify(e)).join("\n")}\n`);
      const verify = spawnSync(process.execPath, [CLI, "verify", file], { encoding: "utf8" });
      expect(verify.stdout + verify.stderr).toMatch(/^\d+ events, 0 violations\n$/);
      expect(verify.status).toBe(0);
      expect(await server.stop()).toBe(143);
    }, 180_000);
  }
});
