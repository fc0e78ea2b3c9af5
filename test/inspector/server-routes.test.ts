import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { readRoutes } from "../../inspector/src/server-routes.js";
import { type SessionServer, startSessionServer } from "../../src/server/session-server.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";

/** The page reads what the server offers off its OpenAPI document: the real one of this server. */

const TOKEN = "routes-token";
let server: SessionServer;
let dataDir = "";

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "inspector-routes-"));
  server = await startSessionServer({
    store: await openSqliteStore({ dataDir }),
    dataDir,
    token: TOKEN,
    host: "127.0.0.1",
    port: 0,
    version: "test",
  });
});

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it("finds the routes, body fields and query parameters the document has, and only those", async () => {
  const response = await fetch(`${server.url}/v1/openapi.json`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const routes = readRoutes(await response.json());
  expect(routes.has("get", "/v1/sessions")).toBe(true);
  expect(routes.has("POST", "/v1/sessions/{id}/requests/{requestId}")).toBe(true);
  expect(routes.has("post", "/v1/sessions/{id}/not-a-route")).toBe(false);
  expect(routes.bodyHas("post", "/v1/sessions/{id}/turns", "text")).toBe(true);
  expect(routes.bodyHas("post", "/v1/sessions/{id}/turns", "no-such-field")).toBe(false);
  // the command surface's fields ([control]): the page's pickers, attach and Steer/Queue light up on these
  for (const field of ["model", "mode", "effort"])
    expect(routes.bodyHas("patch", "/v1/sessions/{id}", field)).toBe(true);
  for (const field of ["attachments", "delivery"])
    expect(routes.bodyHas("post", "/v1/sessions/{id}/turns", field)).toBe(true);
  expect(routes.has("get", "/v1/agents")).toBe(true);
  expect(routes.queryHas("get", "/v1/sessions/{id}/events", "after")).toBe(true);
  expect(routes.queryHas("get", "/v1/sessions/{id}/events", "no-such-parameter")).toBe(false);
  expect(readRoutes("not a document").has("get", "/v1/sessions")).toBe(false);
});
