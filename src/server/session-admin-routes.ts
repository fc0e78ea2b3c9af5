import type { OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { UnsupportedBody } from "../api/control-schemas.js";
import type { SessionList, SessionSummary } from "../api/schemas.js";
import { SessionSummary as SessionSummarySchema } from "../api/schemas.js";
import {
  ForkBody,
  LIST_LIMIT_DEFAULT,
  type ListSessionsQuery,
  SessionPatchBody,
} from "../api/session-admin-schemas.js";
import { listFromRecords } from "../store/registry-listing.js";
import type { SessionStore } from "../store/types.js";
import { apiRoute, BEARER, errorBody, json } from "./api-route.js";
import { applySessionSettings } from "./control-routes.js";
import { SessionCommandError, type SessionCommands } from "./session-commands.js";
import { summaryBody } from "./summary-body.js";

/** Fork, rename and archive, list and purge (DESIGN.md §9): the routes a person manages sessions with. */

const SessionParams = z.object({ id: z.string().min(1).describe("The canonical session id.") });

export const forkSessionRoute = apiRoute({
  method: "post",
  path: "/v1/sessions/{id}/fork",
  operationId: "forkSession",
  summary: "Forks the session after a turn; the parent is untouched.",
  description:
    "A new session (with `parentId`) whose agent holds the conversation up to `afterTurnId` (default: all of " +
    "it) and nothing after it. An exited parent's agent is resumed natively first.",
  security: BEARER,
  request: { params: SessionParams, body: { ...json(ForkBody, "Where to fork."), required: false } },
  responses: {
    201: json(SessionSummarySchema, "The fork, its agent started."),
    400: errorBody("A bad body, or a turn the session has not completed (named)."),
    401: errorBody("No valid bearer token."),
    404: errorBody("No session with this id."),
    409: errorBody("The session has no native thread yet."),
    422: json(UnsupportedBody, "The provider cannot fork, or an imported history cannot be resumed here."),
    503: errorBody("The server is shutting down, or the fork's agent cannot start."),
  },
});

export const updateSessionRoute = apiRoute({
  method: "patch",
  path: "/v1/sessions/{id}",
  operationId: "updateSession",
  summary: "Changes a session: its model, mode or effort from the next turn on, its title, archived or not.",
  description:
    "Settings go to the agent (`session.configured` says what changed); a title is also a " +
    "`thread.metadata.updated` in the stream. Settings are applied first: a refused one changes nothing else.",
  security: BEARER,
  request: {
    params: SessionParams,
    body: { ...json(SessionPatchBody, "What to change."), required: true },
  },
  responses: {
    200: json(SessionSummarySchema, "The session as changed."),
    400: errorBody("A bad body, or a value the agent does not offer."),
    401: errorBody("No valid bearer token."),
    404: errorBody("No session with this id."),
    422: json(UnsupportedBody, "A setting the agent cannot change, and why."),
    503: errorBody("The agent cannot be resumed."),
  },
});

interface AdminRoutesOptions {
  store: SessionStore;
  commands: SessionCommands;
}

export function mountSessionAdminRoutes(app: OpenAPIHono, options: AdminRoutesOptions): void {
  const { store, commands } = options;

  app.openapi(forkSessionRoute, async (c) => {
    const { id } = c.req.valid("param");
    if (commands.fork === undefined)
      throw new SessionCommandError("unsupported", "this server cannot fork sessions");
    const body = c.req.header("content-type") === undefined ? {} : c.req.valid("json");
    const record = await commands.fork(id, body ?? {});
    return c.json(summaryBody(record), 201);
  });

  app.openapi(updateSessionRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await updateSession(commands, store, id, c.req.valid("json")), 200);
  });
}

/** The settings through the driver's `configure()`, then the title and archived flag. */
async function updateSession(
  commands: SessionCommands,
  store: SessionStore,
  id: string,
  body: SessionPatchBody,
): Promise<SessionSummary> {
  const { title, archived, ...settings } = body;
  const admin = {
    ...(title === undefined ? {} : { title }),
    ...(archived === undefined ? {} : { archived }),
  };
  const hasAdmin = Object.keys(admin).length > 0;
  if ((await store.getSession(id)) === undefined)
    throw new SessionCommandError("not_found", `no session ${id}`);
  if (!hasAdmin) return applySessionSettings(commands, id, settings);
  if (Object.keys(settings).length > 0) await applySessionSettings(commands, id, settings);
  if (commands.updateAdmin === undefined)
    throw new SessionCommandError("unsupported", "this server cannot rename or archive sessions");
  return summaryBody(await commands.updateAdmin(id, admin));
}

/** `GET /v1/sessions`: the store's own query where it has one, else its whole registry filtered here. */
export async function listSessions(store: SessionStore, query: ListSessionsQuery): Promise<SessionList> {
  const wanted = {
    limit: query.limit ?? LIST_LIMIT_DEFAULT,
    ...(query.q === undefined ? {} : { q: query.q }),
    ...(query.provider === undefined ? {} : { provider: query.provider }),
    ...(query.state === undefined ? {} : { state: query.state }),
    ...(query.archived === undefined ? {} : { archived: query.archived }),
    ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
  };
  let page: Awaited<ReturnType<NonNullable<SessionStore["querySessions"]>>> | undefined;
  try {
    page = store.querySessions
      ? await store.querySessions(wanted)
      : listFromRecords(await store.listSessions(), wanted);
  } catch (error) {
    if (error instanceof SyntaxError) throw new SessionCommandError("invalid", error.message, "cursor");
    throw error;
  }
  if (page === undefined)
    throw new SessionCommandError("invalid", "cursor: not a cursor of this list", "cursor");
  const sessions = page.sessions.map(summaryBody);
  return page.next === undefined ? { sessions } : { sessions, next: page.next };
}

/** `DELETE …?purge=1`: the summary as it was, once the session is gone. */
export async function purge(commands: SessionCommands, store: SessionStore, id: string) {
  if (commands.purge === undefined)
    throw new SessionCommandError("unsupported", "this server cannot remove sessions");
  const record = await store.getSession(id);
  if (record === undefined) throw new SessionCommandError("not_found", `no session ${id}`);
  await commands.purge(id);
  return summaryBody({ ...record, exited: true });
}
