import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import type { SessionList } from "../api/schemas.js";
import { ErrorBody, SessionSummary } from "../api/schemas.js";
import {
  ForkBody,
  LIST_LIMIT_DEFAULT,
  type ListSessionsQuery,
  SessionAdminPatch,
} from "../api/session-admin-schemas.js";
import { listFromRecords } from "../store/registry-listing.js";
import type { SessionStore } from "../store/types.js";
import { SessionCommandError, type SessionCommands } from "./session-commands.js";
import { summaryBody } from "./summary-body.js";

/** Fork, rename and archive, list and purge (DESIGN.md §9): the routes a person manages sessions with. */

const json = <S extends z.ZodType>(schema: S, description: string) => ({
  content: { "application/json": { schema } },
  description,
});
const error = (description: string) => json(ErrorBody, description);
const Unsupported = z.object({ error: z.literal("unsupported"), reason: z.string() });
const SessionParams = z.object({ id: z.string().min(1).describe("The canonical session id.") });
const secured = [{ bearer: [] }];

export const forkSessionRoute = createRoute({
  method: "post",
  path: "/v1/sessions/{id}/fork",
  summary:
    "Forks the session after a turn: a new session (with `parentId`) whose agent holds the conversation up to " +
    "that turn and nothing after it; the parent is untouched.",
  security: secured,
  request: { params: SessionParams, body: { ...json(ForkBody, "Where to fork."), required: false } },
  responses: {
    201: json(SessionSummary, "The fork, its agent started."),
    400: error("A bad body, or a turn the session has not completed (named)."),
    401: error("No valid bearer token."),
    404: error("No session with this id."),
    409: error("The session has no native thread yet."),
    422: json(Unsupported, "The provider cannot fork, or an imported history cannot be resumed here."),
    503: error("The server is shutting down, or the fork's agent cannot start."),
  },
});

export const updateSessionRoute = createRoute({
  method: "patch",
  path: "/v1/sessions/{id}",
  summary: "Renames (a `thread.metadata.updated` in the stream too) or archives a session.",
  security: secured,
  request: {
    params: SessionParams,
    body: { ...json(SessionAdminPatch.strict(), "What to change."), required: true },
  },
  responses: {
    200: json(SessionSummary, "The session as changed."),
    400: error("A bad body."),
    401: error("No valid bearer token."),
    404: error("No session with this id."),
    422: json(Unsupported, "This server cannot change that."),
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
    if (commands.updateAdmin === undefined)
      throw new SessionCommandError("unsupported", "this server cannot rename or archive sessions");
    if ((await store.getSession(id)) === undefined)
      throw new SessionCommandError("not_found", `no session ${id}`);
    return c.json(summaryBody(await commands.updateAdmin(id, c.req.valid("json"))), 200);
  });
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
