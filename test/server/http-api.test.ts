import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServeProcess } from "./support/serve-process.js";
import { SseReader } from "./support/sse-reader.js";

/** The HTTP contract of `serve` (DESIGN.md §9), through real HTTP against the built CLI with the SQLite store. */

const TOKEN = "test-token-0123456789";
let server: ServeProcess;

/** The registry entry of a session once it matches: it follows the stored events (written just after them). */
async function summaryWhen(id: string, expected: Partial<Summary>): Promise<Summary | undefined> {
  let found: Summary | undefined;
  for (let tries = 0; tries < 50; tries++) {
    const listed = await server.json<{ sessions: Summary[] }>("/v1/sessions");
    found = listed.body.sessions.find((s) => s.id === id);
    if (found !== undefined && Object.entries(expected).every(([k, v]) => found?.[k as keyof Summary] === v))
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return found;
}
let root: string;

interface Summary {
  id: string;
  state: string;
  lastSequence: number;
  openRequests: number;
  exited: boolean;
  title?: string;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "serve-root-"));
  mkdirSync(join(root, "project"));
  symlinkSync("/usr", join(root, "escape"));
  server = await ServeProcess.start({ token: TOKEN, extra: ["--mock", "--root", root] });
});

afterAll(async () => {
  expect(await server.stop()).toBe(143);
  ServeProcess.removeDirs();
  rmSync(root, { recursive: true, force: true });
});

describe("tokens", () => {
  it("health needs none and says the version", async () => {
    const { status, body } = await server.json("/v1/health", { auth: null });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it("every other /v1 route is 401 without the token or with a wrong one", async () => {
    const routes: Array<[string, string]> = [
      ["GET", "/v1/sessions"],
      ["POST", "/v1/sessions"],
      ["GET", "/v1/sessions/ses_x"],
      ["POST", "/v1/sessions/ses_x/turns"],
      ["POST", "/v1/sessions/ses_x/requests/req_x"],
      ["POST", "/v1/sessions/ses_x/interrupt"],
      ["DELETE", "/v1/sessions/ses_x"],
      ["GET", "/v1/sessions/ses_x/events"],
      ["GET", "/v1/sessions/ses_x/events/stream"],
      ["POST", "/v1/sessions/ses_x/events/tickets"],
    ];
    for (const [method, path] of routes) {
      for (const auth of [null, "wrong-token", `${TOKEN}x`, TOKEN.slice(0, -1)]) {
        const body = method === "GET" ? {} : { json: { provider: "codex" } };
        const response = await server.fetch(path, { method, auth, ...body });
        expect([method, path, auth, response.status]).toEqual([method, path, auth, 401]);
        expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      }
    }
  });

  it("no CORS headers without --cors", async () => {
    const response = await server.fetch("/v1/sessions", { headers: { origin: "http://evil.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await server.fetch("/v1/sessions", {
      method: "OPTIONS",
      auth: null,
      headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("bad input", () => {
  it("400 names the field: unknown provider, unknown key, missing text, bad decision", async () => {
    const provider = await server.json("/v1/sessions", { method: "POST", json: { provider: "nope" } });
    expect(provider.status).toBe(400);
    expect(provider.body).toMatchObject({ field: "provider", error: expect.stringMatching(/^provider: /) });
    const extra = await server.json("/v1/sessions", {
      method: "POST",
      json: { provider: "codex", shell: "x" },
    });
    expect(extra).toMatchObject({ status: 400, body: { field: "shell" } });
    const acp = await server.json("/v1/sessions", { method: "POST", json: { provider: "acp" } });
    expect(acp).toMatchObject({ status: 400, body: { field: "agent" } });
    const cwd = await server.json("/v1/sessions", {
      method: "POST",
      json: { provider: "codex", cwd: join(root, "missing") },
    });
    expect(cwd).toMatchObject({ status: 400, body: { field: "cwd" } });
    const turn = await server.json("/v1/sessions/ses_x/turns", { method: "POST", json: {} });
    expect(turn).toMatchObject({ status: 400, body: { field: "text" } });
    const decision = await server.json("/v1/sessions/ses_x/requests/req_x", {
      method: "POST",
      json: { decision: "yes" },
    });
    expect(decision).toMatchObject({ status: 400, body: { field: "decision" } });
    const page = await server.json("/v1/sessions/ses_x/events?limit=5000");
    expect(page).toMatchObject({ status: 400, body: { field: "limit" } });
  });

  it("a body that is not JSON, or too deep, or not an object is a 400, never a crash", async () => {
    for (const body of ["{", "[]", "null", `${"[".repeat(200_000)}${"]".repeat(200_000)}`, "\u0000"]) {
      const response = await server.fetch("/v1/sessions", {
        method: "POST",
        body,
        headers: { "content-type": "application/json" },
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toHaveProperty("error");
    }
    const health = await server.json("/v1/health");
    expect(health.status).toBe(200);
  });

  it("403 for a cwd outside --root, also through a symlink inside it", async () => {
    for (const cwd of ["/tmp", join(root, ".."), join(root, "escape"), "escape/bin"]) {
      const { status, body } = await server.json("/v1/sessions", {
        method: "POST",
        json: { provider: "codex", cwd },
      });
      expect([cwd, status]).toEqual([cwd, 403]);
      expect(body).toMatchObject({ error: expect.stringMatching(/outside/) });
    }
    const listed = await server.json<{ sessions: Summary[] }>("/v1/sessions");
    expect(listed.body.sessions).toEqual([]);
  });

  it("404 for an unknown session, route or request", async () => {
    for (const [method, path] of [
      ["GET", "/v1/sessions/ses_nope"],
      ["POST", "/v1/sessions/ses_nope/interrupt"],
      ["DELETE", "/v1/sessions/ses_nope"],
      ["GET", "/v1/sessions/ses_nope/events"],
      ["GET", "/v1/nothing"],
    ] as const) {
      const response = await server.fetch(path, { method });
      expect([path, response.status]).toEqual([path, 404]);
    }
    const turn = await server.json("/v1/sessions/ses_nope/turns", { method: "POST", json: { text: "hi" } });
    expect(turn.status).toBe(404);
    const sse = new SseReader(`${server.url}/v1/sessions/ses_nope/events`, {
      authorization: `Bearer ${TOKEN}`,
    });
    await sse.ended;
    expect(sse.status).toBe(404);
  });
});

describe("a session (real codex app-server, mock model)", () => {
  it("201, 409 for a turn while one runs, 200 then 409 for an answer, 404 for an unknown request, stop", async () => {
    const created = await server.json<Summary>("/v1/sessions", {
      method: "POST",
      json: { provider: "codex", cwd: "project" },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^ses_/), exited: false });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const sse = new SseReader(`${server.url}/v1/sessions/${id}/events`, auth);

    expect(
      (await server.fetch(`/v1/sessions/${id}/turns`, { method: "POST", json: { text: "mock:shell run" } }))
        .status,
    ).toBe(202);
    const again = await server.json(`/v1/sessions/${id}/turns`, { method: "POST", json: { text: "more" } });
    expect(again).toMatchObject({ status: 409, body: { error: expect.stringMatching(/already running/) } });

    await sse.until((r) => r.events().some((e) => e.type === "request.opened"));
    const opened = sse.events().find((e) => e.type === "request.opened") as unknown as { requestId: string };
    const waiting = { state: "waiting", openRequests: 1, title: "mock:shell run" };
    expect(await summaryWhen(id, waiting)).toMatchObject(waiting);
    const unknown = await server.json(`/v1/sessions/${id}/requests/req_nope`, {
      method: "POST",
      json: { decision: "accept" },
    });
    expect(unknown.status).toBe(404);
    const path = `/v1/sessions/${id}/requests/${opened.requestId}`;
    expect((await server.json(path, { method: "POST", json: { decision: "accept" } })).status).toBe(200);
    const twice = await server.json(path, { method: "POST", json: { decision: "decline" } });
    expect(twice).toMatchObject({ status: 409, body: { error: expect.stringMatching(/already resolved/) } });

    await sse.until((r) => r.events().some((e) => e.type === "turn.completed"));
    const detail = await server.json<{ session: Summary; view: { turns: unknown[] } }>(`/v1/sessions/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.view.turns).toHaveLength(1);

    const stopped = await server.json<Summary>(`/v1/sessions/${id}`, { method: "DELETE" });
    expect(stopped).toMatchObject({ status: 200, body: { exited: true, state: "stopped" } });
    await sse.until((r) => r.events().some((e) => e.type === "session.exited"));
    const interrupt = await server.fetch(`/v1/sessions/${id}/interrupt`, { method: "POST" });
    expect(interrupt.status).toBe(409);
    // the answer to a request of an exited session is still a 409, read from the stored log
    expect((await server.json(path, { method: "POST", json: { decision: "accept" } })).status).toBe(409);
    sse.close();
    const sequences = sse.events().map((e) => e.sequence);
    expect(sequences).toEqual(sequences.map((_, i) => i + 1));
  });
});

describe("an agent that cannot run", () => {
  it("201 with state error and a stream that says why; a turn is a 503 naming the reason", async () => {
    const missing = join(root, "no-such-agent");
    const created = await server.json<Summary>("/v1/sessions", {
      method: "POST",
      json: { provider: "acp", agent: [missing] },
    });
    expect(created).toMatchObject({ status: 201, body: { state: "error", exited: true } });
    const page = await server.json<{ events: Array<{ type: string; sequence: number }> }>(
      `/v1/sessions/${created.body.id}/events`,
    );
    expect(page.body.events.map((e) => e.type)).toContain("runtime.error");
    expect(page.body.events.at(-1)?.type).toBe("session.exited");
    const turn = await server.json(`/v1/sessions/${created.body.id}/turns`, {
      method: "POST",
      json: { text: "hello" },
    });
    expect(turn).toMatchObject({ status: 503, body: { error: expect.stringMatching(/did not start/) } });
    const again = await server.json<{ events: Array<{ type: string; sequence: number }> }>(
      `/v1/sessions/${created.body.id}/events`,
    );
    const sequences = again.body.events.map((e) => e.sequence);
    expect(sequences).toEqual(sequences.map((_, i) => i + 1));
    expect(again.body.events.filter((e) => e.type === "session.exited")).toHaveLength(2);
  });
});

describe("resuming a stopped session", () => {
  it("two turns at once start one agent: one 202, one 409, one more session.started", async () => {
    const created = await server.json<Summary>("/v1/sessions", {
      method: "POST",
      json: { provider: "codex" },
    });
    const id = created.body.id;
    const sse = new SseReader(`${server.url}/v1/sessions/${id}/events`, { authorization: `Bearer ${TOKEN}` });
    expect(
      (await server.fetch(`/v1/sessions/${id}/turns`, { method: "POST", json: { text: "mock:text one" } }))
        .status,
    ).toBe(202);
    await sse.until((r) => r.events().some((e) => e.type === "turn.completed"));
    expect((await server.fetch(`/v1/sessions/${id}`, { method: "DELETE" })).status).toBe(200);
    const turns = await Promise.all(
      ["mock:text two", "mock:text three"].map((text) =>
        server.fetch(`/v1/sessions/${id}/turns`, { method: "POST", json: { text } }).then((r) => r.status),
      ),
    );
    expect(turns.sort()).toEqual([202, 409]);
    await sse.until((r) => r.events().filter((e) => e.type === "turn.completed").length === 2);
    expect(sse.events().filter((e) => e.type === "session.started")).toHaveLength(2);
    expect((await server.fetch(`/v1/sessions/${id}`, { method: "DELETE" })).status).toBe(200);
    await sse.until((r) => r.events().filter((e) => e.type === "session.exited").length === 2);
    const sequences = sse.events().map((e) => e.sequence);
    expect(sequences).toEqual(sequences.map((_, i) => i + 1));
    sse.close();
  });
});

describe("an ACP agent (codex-acp, mock model)", () => {
  it("asks, is answered, completes; its config home lives under DATA/sessions/<id>", async () => {
    const created = await server.json<Summary>("/v1/sessions", {
      method: "POST",
      json: { provider: "acp", agent: ["codex-acp"], cwd: "project" },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(existsSync(join(server.data, "sessions", id, "codex-home", "config.toml"))).toBe(true);
    const sse = new SseReader(`${server.url}/v1/sessions/${id}/events`, { authorization: `Bearer ${TOKEN}` });
    expect(
      (await server.fetch(`/v1/sessions/${id}/turns`, { method: "POST", json: { text: "mock:shell go" } }))
        .status,
    ).toBe(202);
    await sse.until((r) => r.events().some((e) => e.type === "request.opened"));
    const opened = sse.events().find((e) => e.type === "request.opened") as unknown as { requestId: string };
    const answer = { method: "POST", json: { decision: "accept" } };
    expect((await server.fetch(`/v1/sessions/${id}/requests/${opened.requestId}`, answer)).status).toBe(200);
    await sse.until((r) => r.events().some((e) => e.type === "turn.completed"));
    expect(sse.events().find((e) => e.type === "turn.completed")).toMatchObject({
      payload: { state: "completed" },
    });
    expect((await server.fetch(`/v1/sessions/${id}`, { method: "DELETE" })).status).toBe(200);
    sse.close();
  });
});

describe("a pending approval outlives its client", () => {
  it("client A sees the request and goes away; client B, connecting later, answers it", async () => {
    const created = await server.json<Summary>("/v1/sessions", {
      method: "POST",
      json: { provider: "codex" },
    });
    const id = created.body.id;
    const a = new SseReader(`${server.url}/v1/sessions/${id}/events`, { authorization: `Bearer ${TOKEN}` });
    expect(
      (await server.fetch(`/v1/sessions/${id}/turns`, { method: "POST", json: { text: "mock:shell go" } }))
        .status,
    ).toBe(202);
    await a.until((r) => r.events().some((e) => e.type === "request.opened"));
    a.close();
    await a.ended;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const b = new SseReader(`${server.url}/v1/sessions/${id}/events`, { authorization: `Bearer ${TOKEN}` });
    await b.until((r) => r.events().some((e) => e.type === "request.opened"));
    const opened = b.events().find((e) => e.type === "request.opened") as unknown as { requestId: string };
    expect(opened.requestId).toBe(
      (a.events().find((e) => e.type === "request.opened") as unknown as { requestId: string }).requestId,
    );
    expect(await summaryWhen(id, { state: "waiting", openRequests: 1 })).toMatchObject({
      state: "waiting",
      openRequests: 1,
    });
    const answered = await server.fetch(`/v1/sessions/${id}/requests/${opened.requestId}`, {
      method: "POST",
      json: { decision: "accept" },
    });
    expect(answered.status).toBe(200);
    await b.until((r) => r.events().some((e) => e.type === "turn.completed"));
    expect(b.events().find((e) => e.type === "request.resolved")).toMatchObject({
      payload: { decision: "accept" },
    });
    expect(b.events().find((e) => e.type === "turn.completed")).toMatchObject({
      payload: { state: "completed" },
    });
    expect((await server.fetch(`/v1/sessions/${id}`, { method: "DELETE" })).status).toBe(200);
    b.close();
  });
});

describe("GET /v1/openapi.json", () => {
  it("is an OpenAPI 3.1 document with every route, its schemas valid JSON Schema 2020-12", async () => {
    const { status, body } = await server.json<{
      openapi: string;
      info: { title: string; version: string };
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown }>>;
      components: { schemas?: Record<string, unknown>; securitySchemes: Record<string, unknown> };
    }>("/v1/openapi.json", { auth: null });
    expect(status).toBe(200);
    expect(body.openapi).toBe("3.1.0");
    expect(body.info.title).toBeTruthy();
    const operations = Object.entries(body.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        "GET /v1/health",
        "POST /v1/sessions",
        "GET /v1/sessions",
        "GET /v1/sessions/{id}",
        "POST /v1/sessions/{id}/turns",
        "POST /v1/sessions/{id}/requests/{requestId}",
        "POST /v1/sessions/{id}/interrupt",
        "DELETE /v1/sessions/{id}",
        "PATCH /v1/sessions/{id}",
        "POST /v1/sessions/{id}/fork",
        "GET /v1/sessions/{id}/events",
        "GET /v1/sessions/{id}/events/stream",
        "POST /v1/sessions/{id}/events/tickets",
        "GET /v1/agents",
        "POST /v1/login-codes",
        "POST /v1/login-codes/exchange",
      ].sort(),
    );
    expect(body.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    const ajv = new Ajv2020.default({ strict: false });
    const schemas: unknown[] = [];
    for (const [path, methods] of Object.entries(body.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        // health and the login-code exchange are the routes a client without the token reaches
        if (path !== "/v1/health" && path !== "/v1/login-codes/exchange")
          expect([path, method, operation.security]).toEqual([
            path,
            method,
            expect.arrayContaining([{ bearer: [] }]),
          ]);
        expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
        const walk = (node: unknown): void => {
          if (node === null || typeof node !== "object") return;
          const record = node as Record<string, unknown>;
          if ("schema" in record && typeof record.schema === "object") schemas.push(record.schema);
          for (const value of Object.values(record)) walk(value);
        };
        walk(operation);
      }
    }
    expect(schemas.length).toBeGreaterThan(15);
    for (const schema of schemas) {
      expect(JSON.stringify(schema)).not.toMatch(/"\$ref":"(?!#\/components\/schemas\/)/);
      // a `$ref` into the document's components resolves against the document they are given with
      ajv.compile({ ...(schema as object), components: body.components });
    }
    for (const [name, schema] of Object.entries(body.components.schemas ?? {}))
      expect([
        name,
        ajv.compile({ ...(schema as object), components: body.components }) !== undefined,
      ]).toEqual([name, true]);
    const create = body.components.schemas?.CreateSessionBody as { properties: Record<string, unknown> };
    expect(Object.keys(create.properties)).toEqual(
      expect.arrayContaining(["provider", "cwd", "model", "agent", "resume"]),
    );
  });

  it("GET / serves the inspector or says it is not built", async () => {
    const response = await server.fetch("/", { auth: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    expect(await response.text()).toMatch(/<html|<!doctype/i);
  });
});

describe("body size", () => {
  it("413 for a body over 1 MiB", async () => {
    const text = "x".repeat(1024 * 1024 + 10);
    const response = await server.fetch("/v1/sessions/ses_x/turns", { method: "POST", json: { text } });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: expect.stringMatching(/larger than/) });
    // The server may close that connection (the rest of the body is not read); it serves the next one.
    const health = await server.fetch("/v1/health").catch(() => server.fetch("/v1/health"));
    expect(health.status).toBe(200);
  });

  /** A body sent in chunks, without a Content-Length (Transfer-Encoding: chunked). */
  const chunked = (text: string) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        for (let at = 0; at < bytes.length; at += 64 * 1024)
          controller.enqueue(bytes.subarray(at, at + 64 * 1024));
        controller.close();
      },
    });

  /** The status of a turn sent to an unknown session with `body` as a chunked JSON body. */
  const postChunked = async (body: unknown) =>
    (
      await server.fetch("/v1/sessions/ses_x/turns", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: chunked(JSON.stringify(body)),
        duplex: "half",
      } as RequestInit)
    ).status;

  it("413 for a chunked body over 1 MiB (counted as it comes); a small chunked body is read as JSON", async () => {
    expect(await postChunked({ text: "x".repeat(1024 * 1024 + 10) })).toBe(413);
    // read and validated: an unknown session (404), or a field of the wrong type (400)
    expect(await postChunked({ text: "hello" })).toBe(404);
    expect(await postChunked({ text: 5 })).toBe(400);
  });
});
