import { existsSync } from "node:fs";
import { join } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { packageInfo } from "./package-info.js";

/** `dist/inspector/` of this package. */
export function defaultInspectorDir(): string {
  return join(packageInfo().root, "dist", "inspector");
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>provider-runtime</title></head>
<body><h1>provider-runtime serve</h1>
<p>The inspector is not built in this installation (no <code>dist/inspector/</code>). The API is at
<code>/v1</code>; its OpenAPI document is <code>/v1/openapi.json</code> (readable without the token).</p>
</body></html>
`;

/** `GET /` and `/assets/*`: the built inspector, or a plain page saying it is not built. No token: it is static. */
export function mountInspector(app: OpenAPIHono, dir: string): void {
  const built = existsSync(join(dir, "index.html"));
  if (!built) {
    app.get("/", (c) => c.html(NOT_BUILT));
    return;
  }
  app.get("/assets/*", serveStatic({ root: dir }));
  app.get("/", serveStatic({ root: dir, path: "index.html" }));
}
