import type { OpenAPIHono } from "@hono/zod-openapi";
import { turnInputOf } from "../api/control-schemas.js";
import type { RequestResponse } from "../contracts/driver.js";
import { ThreadProjector } from "../projection/reducer.js";
import type { ThreadView } from "../projection/thread-view.js";
import type { SessionRecord, SessionStore } from "../store/types.js";
import {
  createSessionRoute,
  getSessionRoute,
  interruptRoute,
  listSessionsRoute,
  respondRoute,
  stopSessionRoute,
  turnRoute,
} from "./routes.js";
import { listSessions, mountSessionAdminRoutes, purge } from "./session-admin-routes.js";
import { SessionCommandError, type SessionCommands } from "./session-commands.js";
import type { SessionFeed } from "./session-feed.js";
import { streamSessionList } from "./session-list-stream.js";
import { summaryBody } from "./summary-body.js";
import { viewWithoutRaw } from "./without-raw.js";

const PAGE = 1_000;
const DEFAULT_HEARTBEAT_MS = 15_000;

interface SessionRoutesOptions {
  store: SessionStore;
  commands: SessionCommands;
  /** The session list's changes, for `GET /v1/sessions` as SSE. */
  feed: SessionFeed;
  heartbeatMs?: number;
}

export async function found(store: SessionStore, id: string): Promise<SessionRecord> {
  const record = await store.getSession(id);
  if (record === undefined) throw new SessionCommandError("not_found", `no session ${id}`);
  return record;
}

/** The thread view of a session's stored events, read a page at a time. */
async function viewOf(store: SessionStore, id: string): Promise<ThreadView> {
  const projector = new ThreadProjector();
  let after = 0;
  for (;;) {
    const page = await store.readEvents(id, after, PAGE);
    for (const event of page) projector.apply(event);
    const tail = page.at(-1);
    if (tail === undefined) return projector.view;
    after = tail.sequence;
  }
}

/** The `/v1/sessions` routes: reads from the store, changes through the commands. */
export function mountSessionRoutes(app: OpenAPIHono, options: SessionRoutesOptions): void {
  const { store, commands } = options;
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;

  app.openapi(createSessionRoute, async (c) => {
    const record = await commands.create(c.req.valid("json"));
    return c.json(summaryBody(record), 201);
  });

  app.openapi(listSessionsRoute, async (c) => {
    if ((c.req.header("accept") ?? "").includes("text/event-stream")) {
      return streamSessionList(options.feed, heartbeatMs);
    }
    const page = await listSessions(store, c.req.valid("query"));
    return c.json(page, 200);
  });

  app.openapi(getSessionRoute, async (c) => {
    const { id } = c.req.valid("param");
    const record = await found(store, id);
    const view = await viewOf(store, id);
    const raw = c.req.valid("query").raw !== "0";
    return c.json({ session: summaryBody(record), view: raw ? view : viewWithoutRaw(view) }, 200);
  });

  app.openapi(turnRoute, async (c) => {
    const { id } = c.req.valid("param");
    await commands.turn(id, turnInputOf(c.req.valid("json")));
    return c.json({ accepted: true as const }, 202);
  });

  app.openapi(respondRoute, async (c) => {
    const { id, requestId } = c.req.valid("param");
    const body = c.req.valid("json");
    const response: RequestResponse = { decision: body.decision };
    if (body.answers !== undefined) response.answers = body.answers;
    if (body.message !== undefined) response.message = body.message;
    if (body.payload !== undefined) response.payload = body.payload;
    await commands.respond(id, requestId, response);
    return c.json({ accepted: true as const }, 200);
  });

  app.openapi(interruptRoute, async (c) => {
    const { id } = c.req.valid("param");
    await commands.interrupt(id);
    return c.json({ accepted: true as const }, 202);
  });

  app.openapi(stopSessionRoute, async (c) => {
    const { id } = c.req.valid("param");
    await found(store, id);
    if (c.req.valid("query").purge === true) return c.json(await purge(commands, store, id), 200);
    return c.json(summaryBody(await commands.stop(id)), 200);
  });

  mountSessionAdminRoutes(app, options);
}
