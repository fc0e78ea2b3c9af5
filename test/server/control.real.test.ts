import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ESCALATED_SHELL,
  HOLD_RELEASE_FILE,
  imagePartData,
  MCP_ECHO_TEXT,
  type MockModelServer,
  requestImageParts,
  startMockModel,
} from "../../src/mock-model/index.js";
import { until } from "../support/until.js";
import { ServeProcess } from "./support/serve-process.js";

/**
 * Issue #32's done-when, through HTTP only (fetch; no import of the project's client or drivers): the real agents
 * under `serve --model-url`, against the project's mock model, whose request log proves what reached the model.
 */

interface Event {
  sequence: number;
  type: string;
  turnId?: string;
  requestId?: string;
  payload: Record<string, unknown> & { details?: { text?: string }; itemType?: string };
}

const TOKEN = "control-token";
/** The tests' stdio MCP server (the official SDK), run by each agent with this Node. */
const MCP_SERVER = {
  name: "echo",
  command: process.execPath,
  args: [fileURLToPath(new URL("../support/mcp-echo-server.mjs", import.meta.url))],
};
/** A 1×1 PNG. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

interface Agent {
  name: string;
  body: Record<string, unknown>;
  /** A model the agent offers, and what the model request then names. */
  model: string;
  requestModel: RegExp;
  /** A mode to PATCH to, and what the next model request then says (and the one before did not). */
  mode: string;
  modeEvidence: RegExp;
  /** Whether a running turn can be steered (otherwise 422). */
  steer: boolean;
  /** Whether a `mock:shell` turn waits for the host's approval (exec never asks). */
  asks: boolean;
  /** Whether the agent lists its models, so that an unknown one is a 400 (exec cannot list them). */
  listsModels?: false;
}

const AGENTS: Agent[] = [
  {
    name: "codex",
    mode: "plan",
    modeEvidence: /`sandbox_mode` is `read-only`/,
    body: { provider: "codex" },
    model: "gpt-5.6-luna",
    requestModel: /^gpt-5\.6-luna$/,
    steer: true,
    asks: true,
  },
  {
    name: "claude",
    mode: "plan",
    modeEvidence: /Plan mode is active|"permission_mode":"plan"/,
    body: { provider: "claude" },
    model: "haiku",
    requestModel: /haiku/,
    steer: true,
    asks: true,
  },
  {
    name: "claude-agent-acp",
    mode: "plan",
    modeEvidence: /Plan mode is active|"permission_mode":"plan"/,
    body: { provider: "acp", agent: ["claude-agent-acp"] },
    model: "haiku",
    requestModel: /haiku/,
    steer: false,
    asks: true,
  },
  {
    name: "codex-acp",
    mode: "full",
    modeEvidence: /`sandbox_mode` is `danger-full-access`/,
    body: { provider: "acp", agent: ["codex-acp"] },
    model: "gpt-5.6-luna",
    requestModel: /^gpt-5\.6-luna$/,
    steer: false,
    asks: true,
  },
  {
    name: "codex-sdk",
    mode: "plan",
    modeEvidence: /`sandbox_mode` is `read-only`/,
    body: { provider: "codex-sdk" },
    model: "gpt-5.6-luna",
    requestModel: /^gpt-5\.6-luna$/,
    steer: false,
    asks: false,
    listsModels: false,
  },
];

let mock: MockModelServer;
let server: ServeProcess;

beforeAll(async () => {
  // codex-acp asks only for a command that leaves its sandbox: the shell call asks to, as a real model does
  mock = await startMockModel({ script: ESCALATED_SHELL });
  server = await ServeProcess.start({ token: TOKEN, extra: ["--model-url", mock.baseUrl] });
}, 60_000);
afterAll(async () => {
  await ServeProcess.stopAll();
  ServeProcess.removeDirs();
  await mock.close();
});

async function events(id: string): Promise<Event[]> {
  const all: Event[] = [];
  for (let after = 0; ; ) {
    const { body } = await server.json<{ events: Event[]; next: number }>(
      `/v1/sessions/${id}/events?after=${after}&limit=1000`,
    );
    if (body.events.length === 0) return all;
    all.push(...body.events);
    after = body.next;
  }
}

const count = async (id: string, type: string) => (await events(id)).filter((e) => e.type === type).length;

async function turn(id: string, body: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const response = await server.fetch(`/v1/sessions/${id}/turns`, { method: "POST", json: body });
  return { status: response.status, text: await response.text() };
}

/** The mock's model requests whose body holds `marker`. */
const requestsWith = (marker: string) =>
  mock.requests.filter((r) => r.body !== undefined && JSON.stringify(r.body).includes(marker));

describe("the command surface over HTTP, each real agent against the mock", () => {
  it("GET /v1/agents lists every driver and ACP adapter with version, tested version and capabilities", async () => {
    const { status, body } = await server.json<{ agents: Record<string, unknown>[] }>("/v1/agents");
    expect(status).toBe(200);
    const names = body.agents.map((a) => (a.agent as string | undefined) ?? (a.provider as string));
    expect(names).toEqual(
      expect.arrayContaining(["codex", "codex-sdk", "claude", "cursor", "claude-agent-acp", "codex-acp"]),
    );
    for (const agent of body.agents.filter((a) => a.provider !== "cursor")) {
      expect(agent.installed, JSON.stringify(agent)).toBe(true);
      expect(agent.version).toBe(agent.testedVersion);
      expect(agent.capabilities).toMatchObject({
        attachments: expect.any(Array),
        steer: expect.any(Boolean),
      });
    }
    expect((await server.fetch("/v1/agents", { auth: null })).status).toBe(401);
  });

  for (const agent of AGENTS) {
    it(agent.name, async () => {
      const tag = `${agent.name}-${Date.now()}`;
      const created = await server.json<{ id: string; cwd: string }>("/v1/sessions", {
        method: "POST",
        json: agent.body,
      });
      expect(created.status).toBe(201);
      const id = created.body.id;

      // an image attachment reaches the model API as an image part
      const imageMarker = `img-${tag}`;
      const image = { type: "image", mediaType: "image/png", data: PNG };
      expect(await turn(id, { text: `mock:text ${imageMarker}`, attachments: [image] })).toMatchObject({
        status: 202,
      });
      expect(await until(async () => (await count(id, "turn.completed")) >= 1)).toBe(true);
      const withImage = requestsWith(imageMarker);
      expect(withImage.length).toBeGreaterThan(0);
      expect(
        withImage.some((r) => requestImageParts(r.body).some((part) => imagePartData(part) === PNG)),
      ).toBe(true);

      // a bad attachment is a 400 naming the field; nothing reaches the agent
      const bad = await turn(id, {
        text: "x",
        attachments: [{ type: "image", mediaType: "image/png", data: "%%%" }],
      });
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.text).field).toMatch(/^attachments\.0/);

      // a running turn: steered text joins it (or 422), a queued turn starts after it, a plain one is a 409
      // an agent that asks waits for the approval; exec runs the hold scenario's command until it is released
      const running = agent.asks ? "mock:shell steer base" : "mock:hold steer base";
      expect(await turn(id, { text: running })).toMatchObject({ status: 202 });
      const isHeld = (e: Event) =>
        agent.asks
          ? e.type === "request.opened"
          : e.type === "item.started" && e.payload.itemType === "command_execution";
      expect(await until(async () => (await events(id)).some(isHeld))).toBe(true);
      const steerMarker = `steered-${tag}`;
      const steered = await turn(id, { text: `mock:text ${steerMarker}`, delivery: "steer" });
      if (agent.steer) expect(steered.status).toBe(202);
      else {
        expect(steered.status).toBe(422);
        expect(JSON.parse(steered.text)).toEqual({
          error: "unsupported",
          reason: expect.stringContaining("steer"),
        });
      }
      const queueMarker = `queued-${tag}`;
      expect(await turn(id, { text: `mock:text ${queueMarker}`, delivery: "queue" })).toMatchObject({
        status: 202,
      });
      expect((await turn(id, { text: "mock:text refused" })).status).toBe(409);
      if (agent.asks) {
        const opened = (await events(id)).find((e) => e.type === "request.opened") as Event;
        const answered = await server.fetch(`/v1/sessions/${id}/requests/${opened.requestId}`, {
          method: "POST",
          json: { decision: "accept" },
        });
        expect(answered.status).toBe(200);
      } else {
        await writeFile(join(created.body.cwd, HOLD_RELEASE_FILE), "");
      }
      expect(await until(async () => (await count(id, "turn.completed")) >= 3)).toBe(true);
      const all = await events(id);
      const turnOf = (text: string) =>
        all.find(
          (e) =>
            e.type === "item.completed" &&
            e.payload.itemType === "user_message" &&
            (e.payload.details?.text ?? "").includes(text),
        )?.turnId;
      const runningTurn = turnOf("steer base");
      if (agent.steer) {
        expect(turnOf(steerMarker)).toBe(runningTurn);
        expect(requestsWith(steerMarker).length).toBeGreaterThan(0);
      }
      const queuedTurn = turnOf(queueMarker);
      expect(queuedTurn).toBeDefined();
      expect(queuedTurn).not.toBe(runningTurn);
      const endOfRunning = all.findIndex((e) => e.type === "turn.completed" && e.turnId === runningTurn);
      const startOfQueued = all.findIndex((e) => e.type === "turn.started" && e.turnId === queuedTurn);
      expect(endOfRunning).toBeGreaterThan(-1);
      expect(startOfQueued).toBeGreaterThan(endOfRunning);
      expect(requestsWith(queueMarker).length).toBeGreaterThan(0);
      expect(requestsWith("mock:text refused")).toEqual([]);

      // after PATCH {model} the next model request names the new model
      const patched = await server.fetch(`/v1/sessions/${id}`, {
        method: "PATCH",
        json: { model: agent.model },
      });
      expect([patched.status, await patched.text()]).toEqual([200, expect.stringContaining(agent.model)]);
      const stored = await events(id);
      expect(
        stored.some(
          (e) =>
            e.type === "session.configured" && (e.payload.config as { model?: string }).model === agent.model,
        ),
      ).toBe(true);
      const modelMarker = `model-${tag}`;
      expect(await turn(id, { text: `mock:text ${modelMarker}` })).toMatchObject({ status: 202 });
      expect(await until(async () => (await count(id, "turn.completed")) >= 4)).toBe(true);
      const afterPatch = requestsWith(modelMarker);
      expect(afterPatch.length).toBeGreaterThan(0);
      expect((afterPatch.at(-1)?.body as { model?: string } | undefined)?.model).toMatch(agent.requestModel);
      // a model the agent does not offer is a 400 (exec lists none: any name goes to its next run)
      if (agent.listsModels !== false) {
        const unknown = await server.fetch(`/v1/sessions/${id}`, {
          method: "PATCH",
          json: { model: "no-such-model" },
        });
        expect(unknown.status).toBe(400);
      }

      // PATCH {mode}: the agent's own mode changes, and the next model request says so
      const modePatch = await server.fetch(`/v1/sessions/${id}`, {
        method: "PATCH",
        json: { mode: agent.mode },
      });
      expect([modePatch.status, await modePatch.text()]).toEqual([200, expect.any(String)]);
      const modeMarker = `mode-${tag}`;
      expect(await turn(id, { text: `mock:text ${modeMarker}` })).toMatchObject({ status: 202 });
      expect(await until(async () => (await count(id, "turn.completed")) >= 5)).toBe(true);
      // each turn's first request (later ones repeat the history)
      const turnRequest = (marker: string) => requestsWith(marker).find((r) => r.scenario !== "side-request");
      const beforeMode = JSON.stringify(turnRequest(modelMarker)?.body ?? {});
      const afterMode = JSON.stringify(turnRequest(modeMarker)?.body ?? {});
      expect(beforeMode).not.toMatch(agent.modeEvidence);
      expect(afterMode).toMatch(agent.modeEvidence);
      const modeChanges = (await events(id)).filter(
        (e) => e.type === "session.configured" && (e.payload.config as { mode?: unknown }).mode !== undefined,
      );
      expect(modeChanges.map((e) => e.payload.config)).toContainEqual({
        mode: expect.objectContaining({ id: expect.any(String) }),
      });
      const badMode = await server.fetch(`/v1/sessions/${id}`, {
        method: "PATCH",
        json: { mode: "no-such-mode" },
      });
      expect(badMode.status).toBe(400);

      expect((await server.fetch(`/v1/sessions/${id}`, { method: "DELETE" })).status).toBe(200);
    }, 240_000);

    it(`${agent.name}: an MCP server given at creation has its tool offered to the model and called`, async () => {
      const created = await server.json<{ id: string }>("/v1/sessions", {
        method: "POST",
        json: { ...agent.body, mcpServers: [MCP_SERVER] },
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const marker = `mcp-${agent.name}-${Date.now()}`;
      expect(await turn(id, { text: `mock:mcp ${marker}` })).toMatchObject({ status: 202 });
      // approve whatever the agent asks (the tool call), each request once
      const answered = new Set<string>();
      const done = await until(async () => {
        const all = await events(id);
        for (const opened of all.filter(
          (e) => e.type === "request.opened" && !answered.has(e.requestId ?? ""),
        )) {
          answered.add(opened.requestId ?? "");
          await server.fetch(`/v1/sessions/${id}/requests/${opened.requestId}`, {
            method: "POST",
            json: { decision: "accept", answers: {} },
          });
        }
        return all.some((e) => e.type === "turn.completed");
      }, 90_000);
      expect(done).toBe(true);
      const all = await events(id);
      const call = all.find((e) => e.type === "item.completed" && e.payload.itemType === "mcp_tool_call");
      expect(call?.payload.details).toMatchObject({ server: "echo", tool: "mock_echo" });
      // the model got the real server's answer back
      const echoed = requestsWith(marker).filter((r) =>
        JSON.stringify(r.body).includes(`mcp-echo: ${MCP_ECHO_TEXT}`),
      );
      expect(echoed.length).toBeGreaterThan(0);
      expect((await server.fetch(`/v1/sessions/${id}`, { method: "DELETE" })).status).toBe(200);
    }, 120_000);
  }
});
