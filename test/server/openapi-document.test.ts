import { describe, expect, it } from "vitest";
import { createServerApp } from "../../src/server/app.js";
import type { SessionCommands } from "../../src/server/session-commands.js";
import type { SessionStore } from "../../src/store/types.js";

/**
 * The OpenAPI document is complete by construction: every route the app serves under /v1 is in it, with an
 * operationId, a summary and a schema for every response. A route added without them fails here. The document
 * is generated without serving anything, so the store and the commands are never called.
 */

interface Operation {
  operationId?: string;
  summary?: string;
  security?: Array<Record<string, unknown>>;
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
}
interface Document {
  security: unknown;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const unused = new Proxy({}, { get: () => () => Promise.reject(new Error("not served here")) });

async function documentOf(): Promise<{ doc: Document; served: string[] }> {
  const app = createServerApp({
    store: unused as SessionStore,
    commands: unused as SessionCommands,
    token: "document-test-token",
    version: "0.0.0",
    inspectorDir: "/nonexistent",
  });
  const response = await app.request("http://127.0.0.1:4317/v1/openapi.json");
  expect(response.status).toBe(200);
  const served = app.routes
    .filter((route) => route.path.startsWith("/v1/") && route.method !== "ALL")
    .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`)
    .filter((route) => route !== "GET /v1/openapi.json");
  return { doc: (await response.json()) as Document, served: [...new Set(served)].sort() };
}

/** Every schema object under `node` that says nothing about its value (`{}` or one with only a description). */
function emptySchemas(node: unknown, at: string, found: string[]): void {
  if (node === null || typeof node !== "object") return;
  const record = node as Record<string, unknown>;
  for (const key of ["schema", "items"]) {
    const schema = record[key];
    if (schema !== undefined && typeof schema === "object" && schema !== null) {
      const meaningful = Object.keys(schema).filter((k) => k !== "description");
      if (meaningful.length === 0) found.push(`${at}.${key}`);
    }
  }
  for (const [key, value] of Object.entries(record)) emptySchemas(value, `${at}.${key}`, found);
}

describe("the OpenAPI document", () => {
  it("lists every route the app serves under /v1, and no other", async () => {
    const { doc, served } = await documentOf();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(served);
    expect(served.length).toBeGreaterThanOrEqual(11);
  });

  it("gives every operation a unique operationId, a summary and a security requirement", async () => {
    const { doc } = await documentOf();
    const ids: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        expect([path, method, typeof operation.operationId]).toEqual([path, method, "string"]);
        expect([path, method, (operation.summary?.length ?? 0) > 0]).toEqual([path, method, true]);
        expect([path, method, Array.isArray(operation.security)]).toEqual([path, method, true]);
        ids.push(operation.operationId as string);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.paths["/v1/health"]?.get?.security).toEqual([]);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.streamTicket).toMatchObject({ type: "apiKey", in: "query" });
  });

  it("types every response: a schema per content type, and no schema that says nothing", async () => {
    const { doc } = await documentOf();
    const untyped: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const at = `${method.toUpperCase()} ${path} ${status}`;
          const contents = Object.values(response.content ?? {});
          if (contents.length === 0 || contents.some((c) => c.schema === undefined)) untyped.push(at);
          emptySchemas(response, at, untyped);
        }
      }
    }
    expect(untyped).toEqual([]);
  });

  it("refers to the RuntimeEvent and ThreadView components, generated from the zod model", async () => {
    const { doc } = await documentOf();
    const schemas = doc.components.schemas;
    expect(schemas.EventsPage).toMatchObject({
      properties: { events: { items: { $ref: "#/components/schemas/RuntimeEvent" } } },
    });
    expect(schemas.SessionDetail).toMatchObject({
      properties: { view: { $ref: "#/components/schemas/ThreadView" } },
    });
    const event = schemas.RuntimeEvent as { oneOf: Array<{ properties: { type: { enum?: string[] } } }> };
    expect(event.oneOf.length).toBeGreaterThanOrEqual(45);
    const view = schemas.ThreadView as { properties: Record<string, unknown> };
    expect(Object.keys(view.properties)).toEqual(
      expect.arrayContaining(["turns", "items", "requests", "plan"]),
    );
    const page = doc.paths["/v1/sessions/{id}/events"]?.get?.responses["200"]?.content ?? {};
    expect(Object.keys(page)).toEqual(["application/json"]);
    const stream = doc.paths["/v1/sessions/{id}/events/stream"]?.get?.responses["200"]?.content ?? {};
    expect(Object.keys(stream)).toEqual(["text/event-stream"]);
  });
});
