import type { OpenAPIHono } from "@hono/zod-openapi";

export const OPENAPI_PATH = "/v1/openapi.json";

/**
 * `GET /v1/openapi.json`, readable without the token (it says how to use the API, nothing about its sessions):
 * the OpenAPI 3.1 document of every route registered with `app.openapi`, the bearer scheme and the stream
 * ticket declared, the server being the one that answered.
 */
export function mountOpenApiDocument(app: OpenAPIHono, version: string): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "The server's token (`DATA/token`, `--token-file` or `PROVIDER_RUNTIME_TOKEN`).",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "streamTicket", {
    type: "apiKey",
    in: "query",
    name: "ticket",
    description:
      "A stream ticket (`POST /v1/sessions/{id}/events/tickets`): one GET of that session's events.",
  });
  app.doc31(OPENAPI_PATH, (c) => ({
    openapi: "3.1.0",
    info: {
      title: "provider-runtime serve",
      version,
      description:
        "Coding-agent sessions over HTTP: one canonical event stream per session (RuntimeEvent), " +
        "approvals answered through one interface, whatever the agent.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: new URL(c.req.url).origin, description: "The server that served this document." }],
    security: [{ bearer: [] }],
  }));
}
