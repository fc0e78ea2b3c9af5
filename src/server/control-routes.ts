import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import {
  AgentList,
  AgentsQuery,
  MAX_TURN_ATTACHMENTS,
  type SessionSettingsBody,
  sessionSettingsOf,
} from "../api/control-schemas.js";
import { ErrorBody, type SessionSummary } from "../api/schemas.js";
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

/** `PATCH /v1/sessions/:id` settings: the driver's `configure()`, through the commands. */
export async function applySessionSettings(
  commands: SessionCommands,
  id: string,
  body: SessionSettingsBody,
): Promise<SessionSummary> {
  return summaryBody(await commands.configure(id, sessionSettingsOf(body)));
}

export function mountControlRoutes(app: OpenAPIHono): void {
  app.openapi(listAgentsRoute, async (c) => {
    const { probe } = c.req.valid("query");
    return c.json({ agents: await listAgents({ probe: probe === "1" }) }, 200);
  });
}
