import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServeProcess } from "./support/serve-process.js";
import { SseReader } from "./support/sse-reader.js";

/** An ACP adapter's question answered over HTTP (DESIGN.md §9), through `serve --mock` and the real adapters. */

const TOKEN = "test-token-0123456789";
let server: ServeProcess;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "serve-root-"));
  mkdirSync(join(root, "project"));
  server = await ServeProcess.start({ token: TOKEN, extra: ["--mock", "--root", root] });
});

afterAll(async () => {
  expect(await server.stop()).toBe(143);
  ServeProcess.removeDirs();
  rmSync(root, { recursive: true, force: true });
});

type Event = { type: string; requestId?: string; payload: Record<string, unknown> };

describe("ACP questions over HTTP", () => {
  for (const [agent, field] of [
    ["claude-agent-acp", "question_0"],
    ["codex-acp", "mock_colour"],
  ] as const) {
    it(`${agent}: user-input.requested, answered with answers by POST, resolved with the typed form content`, async () => {
      const created = await server.json<{ id: string }>("/v1/sessions", {
        method: "POST",
        json: { provider: "acp", agent: [agent], cwd: "project" },
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const sse = new SseReader(`${server.url}/v1/sessions/${id}/events`, {
        authorization: `Bearer ${TOKEN}`,
      });
      const turn = { method: "POST", json: { text: "mock:question ask" } };
      expect((await server.fetch(`/v1/sessions/${id}/turns`, turn)).status).toBe(202);
      await sse.until((r) => r.events().some((e) => e.type === "user-input.requested"));
      const asked = sse.events().find((e) => e.type === "user-input.requested") as unknown as Event;
      const answer = { method: "POST", json: { decision: "accept", answers: { [field]: "Green" } } };
      expect((await server.fetch(`/v1/sessions/${id}/requests/${asked.requestId}`, answer)).status).toBe(200);
      await sse.until((r) => r.events().some((e) => e.type === "turn.completed"));
      const events = sse.events() as unknown as Event[];
      expect(events.find((e) => e.type === "request.opened")?.payload.requestType).toBe("tool_user_input");
      expect(events.find((e) => e.type === "user-input.resolved")?.payload.answers).toEqual({
        [field]: "Green",
      });
      expect((await server.fetch(`/v1/sessions/${id}`, { method: "DELETE" })).status).toBe(200);
      sse.close();
    }, 90_000);
  }
});
