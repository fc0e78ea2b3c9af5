import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import * as z from "zod";
import {
  AgentList,
  AgentsQuery,
  MAX_TURN_ATTACHMENTS,
  SessionSettingsBody,
  sessionSettingsOf,
  UnsupportedBody,
} from "../api/control-schemas.js";
import { ErrorBody, SessionSummary } from "../api/schemas.js";
import { listAgents } from "../drivers/index.js";
import { apiRoute, BEARER, json } from "./api-route.js";
import { bodySizeLimit } from "./body-limit.js";
import type { SessionCommands } from "./session-commands.js";
import { summaryBody } from "./summary-body.js";

/**
 * The command surface's own routes (DESIGN.md §9, §11): the agent catalog and a session's settings. Kept apart
 * from the session routes so that other settings of the same PATCH (title, archived) compose with these.
 */

/** What a turn's body may carry beyond the server's general limit: its attachments, base64, with some slack. */
export const TURN_ATTACHMENT_BYTES = MAX_TURN_ATTACHMENTS * (Math.ceil((10 * 1024 * 1024) / 3) * 4 + 1024);

const TURNS_PATH = /^\/v1\/sessions\/[^/]+\/turns\/?$/;

export function isTurnsPath(path: string): boolean {
  return TURNS_PATH.test(path);
}

/**
 * The turns route's body limit: raised by what attachments may add, and for them alone — a body over `maxSize` is
 * read, and refused when what is not attachment data is still over `maxSize`.
 */
export function turnBodyLimit(
  maxSize: number,
  tooLarge: (limit: number) => (c: Context) => Response,
): MiddlewareHandler {
  const raised = bodySizeLimit(maxSize + TURN_ATTACHMENT_BYTES, tooLarge(maxSize + TURN_ATTACHMENT_BYTES));
  return async (c, next) => {
    let refused: Response | undefined;
    const passed = await raised(c, async () => {
      const length = Number(c.req.header("content-length"));
      const chunked = c.req.header("transfer-encoding") !== undefined;
      if (chunked || length > maxSize) {
        const body: unknown = await c.req.json().catch(() => undefined);
        if (body !== undefined && sizeWithoutAttachmentData(body) > maxSize) {
          refused = tooLarge(maxSize)(c);
          return;
        }
      }
      await next();
    });
    return refused ?? passed;
  };
}

function sizeWithoutAttachmentData(body: unknown): number {
  if (
    typeof body !== "object" ||
    body === null ||
    !Array.isArray((body as { attachments?: unknown }).attachments)
  )
    return JSON.stringify(body ?? null).length;
  const { attachments, ...rest } = body as { attachments: unknown[] };
  const bare = attachments.map((attachment) =>
    typeof attachment === "object" && attachment !== null ? { ...attachment, data: undefined } : attachment,
  );
  return JSON.stringify({ ...rest, attachments: bare }).length;
}

export const listAgentsRoute = apiRoute({
  method: "get",
  path: "/v1/agents",
  operationId: "listAgents",
  summary:
    "Every driver and known ACP agent: installed or not, its version, tested version and capabilities.",
  security: BEARER,
  request: { query: AgentsQuery },
  responses: {
    200: json(AgentList, "The agents."),
    401: json(ErrorBody, "No valid bearer token."),
  },
});

export const configureSessionRoute = apiRoute({
  method: "patch",
  path: "/v1/sessions/{id}",
  operationId: "configureSession",
  summary:
    "Changes the model, mode or effort of the session's next turns (`session.configured` says what changed).",
  security: BEARER,
  request: {
    params: z.object({ id: z.string().min(1).describe("The canonical session id.") }),
    body: { ...json(SessionSettingsBody, "The settings to change."), required: true },
  },
  responses: {
    200: json(SessionSummary, "The session, its agent reconfigured."),
    400: json(ErrorBody, "A bad body, or a value the agent does not offer."),
    401: json(ErrorBody, "No valid bearer token."),
    404: json(ErrorBody, "No session with this id."),
    422: json(UnsupportedBody, "A setting the agent cannot change, and why."),
    503: json(ErrorBody, "The agent cannot be resumed."),
  },
});

/** `PATCH /v1/sessions/:id` settings: the driver's `configure()`, through the commands. */
export async function applySessionSettings(
  commands: SessionCommands,
  id: string,
  body: SessionSettingsBody,
): Promise<SessionSummary> {
  return summaryBody(await commands.configure(id, sessionSettingsOf(body)));
}

export function mountControlRoutes(app: OpenAPIHono, options: { commands: SessionCommands }): void {
  app.openapi(listAgentsRoute, async (c) => {
    const { probe } = c.req.valid("query");
    return c.json({ agents: await listAgents({ probe: probe === "1" }) }, 200);
  });

  app.openapi(configureSessionRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await applySessionSettings(options.commands, id, c.req.valid("json")), 200);
  });
}
