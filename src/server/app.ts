import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import type * as z from "zod";
import type { ErrorBody } from "../api/schemas.js";
import type { SessionStore } from "../store/types.js";
import { bearerAuth } from "./auth.js";
import { bodySizeLimit } from "./body-limit.js";
import { isTurnsPath, mountControlRoutes, turnBodyLimit } from "./control-routes.js";
import { mountEventRoutes } from "./event-routes.js";
import { mountInspector } from "./inspector-static.js";
import { mountLoginCodeExchange, mountLoginCodeIssue } from "./login-code-routes.js";
import { LoginCodes } from "./login-codes.js";
import { mountOpenApiDocument } from "./openapi-document.js";
import { loopbackHostOnly, securityHeaders } from "./request-guards.js";
import { healthRoute } from "./routes.js";
import { COMMAND_ERROR_STATUS, SessionCommandError, type SessionCommands } from "./session-commands.js";
import { SessionFeed } from "./session-feed.js";
import { mountSessionRoutes } from "./session-routes.js";
import { StreamTickets, ticketOr } from "./stream-tickets.js";

export interface ServerAppOptions {
  store: SessionStore;
  commands: SessionCommands;
  token: string;
  version: string;
  /** The built inspector's dir (`dist/inspector/`). */
  inspectorDir: string;
  /** `--cors ORIGIN`: the one origin allowed to call the API from a browser; none by default. */
  corsOrigin?: string;
  /** Largest request body, bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Milliseconds between SSE heartbeat comments (default 15 s). */
  heartbeatMs?: number;
  /** Bound to loopback: answer only requests whose `Host` is a loopback name (DNS rebinding). */
  loopbackOnly?: boolean;
  /** The session list's changes; default one that finds them by rescanning the registry. */
  feed?: SessionFeed;
  /** The inspector's one-time login codes (default: a store of this app's own). */
  loginCodes?: LoginCodes;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The first bad field of a failed validation, as a 400 body naming it. */
function validationError(error: z.ZodError): ErrorBody {
  const issue = error.issues[0];
  const path = issue?.path.map(String) ?? [];
  // An unknown key is reported on its object: name the key itself.
  if (issue?.code === "unrecognized_keys" && issue.keys[0] !== undefined) path.push(issue.keys[0]);
  const where = path.length === 0 ? "body" : path.join(".");
  return { error: `${where}: ${issue?.message ?? "invalid"}`, field: where };
}

/** The HTTP app of `serve` (DESIGN.md §9), without the listening socket. */
export function createServerApp(options: ServerAppOptions): OpenAPIHono {
  const app = new OpenAPIHono({
    defaultHook: (result, c) => {
      if (!result.success) return c.json(validationError(result.error), 400);
      return undefined;
    },
  });
  if (options.loopbackOnly === true) app.use("*", loopbackHostOnly());
  app.use("*", securityHeaders());
  if (options.corsOrigin !== undefined) {
    app.use(
      "/v1/*",
      cors({
        origin: options.corsOrigin,
        allowHeaders: ["Authorization", "Content-Type", "Last-Event-ID"],
        allowMethods: ["GET", "POST", "PATCH", "DELETE"],
      }),
    );
  }
  app.openapi(healthRoute, (c) => {
    // A store whose engine is unreachable (a NATS outage) makes the node unhealthy, and says why.
    const store = options.store.health?.();
    return c.json(
      { ok: store?.connected ?? true, version: options.version, ...(store ? { store } : {}) },
      200,
    );
  });
  mountOpenApiDocument(app, options.version);
  const loginCodes = options.loginCodes ?? new LoginCodes();
  mountLoginCodeExchange(app, loginCodes, options.token);
  const tickets = new StreamTickets();
  app.use("/v1/*", ticketOr(tickets, bearerAuth(options.token)));
  const maxSize = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const tooLarge = (limit: number) => (c: Context) =>
    c.json({ error: `the body is larger than ${limit} bytes` }, 413);
  // A turn may carry attachments of up to 10 MiB each: its route alone takes that much more, for them alone.
  const limitBody = bodySizeLimit(maxSize, tooLarge(maxSize));
  const limitTurnBody = turnBodyLimit(maxSize, tooLarge);
  app.use("/v1/*", (c, next) => (isTurnsPath(c.req.path) ? limitTurnBody(c, next) : limitBody(c, next)));
  mountLoginCodeIssue(app, loginCodes);
  mountSessionRoutes(app, { ...options, feed: options.feed ?? new SessionFeed(options.store) });
  mountEventRoutes(app, { ...options, tickets });
  mountControlRoutes(app);
  mountInspector(app, options.inspectorDir);
  app.notFound((c) => c.json({ error: `no route ${c.req.method} ${c.req.path}` }, 404));
  app.onError((error, c) => errorResponse(error, c));
  return app;
}

function errorResponse(error: Error, c: Context): Response {
  if (error instanceof SessionCommandError) {
    if (error.kind === "unsupported") return c.json({ error: "unsupported", reason: error.message }, 422);
    const body: ErrorBody = {
      error: error.message,
      ...(error.field === undefined ? {} : { field: error.field }),
    };
    return c.json(body, COMMAND_ERROR_STATUS[error.kind]);
  }
  if (error instanceof HTTPException) {
    // The validators' own failures (a body that is not JSON): a 4xx with a sentence, never a crash.
    const status = error.status >= 400 && error.status < 500 ? error.status : 400;
    return c.json({ error: error.message || "bad request" }, status);
  }
  return c.json({ error: `internal error: ${error.message}` }, 500);
}
