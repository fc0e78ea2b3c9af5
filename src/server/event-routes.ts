import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { EVENTS_PAGE_LIMIT } from "../api/schemas.js";
import type { SessionStore } from "../store/types.js";
import { streamEvents } from "./event-stream.js";
import { eventsRoute, streamEventsRoute, streamTicketRoute } from "./routes.js";
import { SessionCommandError } from "./session-commands.js";
import { found } from "./session-routes.js";
import type { StreamTickets } from "./stream-tickets.js";
import { withoutRaw } from "./without-raw.js";

const DEFAULT_HEARTBEAT_MS = 15_000;

interface EventRoutesOptions {
  store: SessionStore;
  tickets: StreamTickets;
  /** Milliseconds between SSE heartbeat comments (default 15 s). */
  heartbeatMs?: number;
}

/** Where a read starts: `Last-Event-ID` wins over `after`. */
function startAfter(after: number | undefined, lastEventId: string | undefined): number {
  const start = lastEventId === undefined ? (after ?? 0) : Number(lastEventId);
  if (!Number.isSafeInteger(start)) {
    const field = lastEventId === undefined ? "after" : "last-event-id";
    throw new SessionCommandError("invalid", `${field}: not a sequence number`, field);
  }
  return start;
}

const wantsStream = (c: Context) => (c.req.header("accept") ?? "").includes("text/event-stream");

/** A session's events (a JSON page or SSE) and the stream tickets for a browser's EventSource. */
export function mountEventRoutes(app: OpenAPIHono, options: EventRoutesOptions): void {
  const { store, tickets } = options;
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;

  app.openapi(eventsRoute, async (c) => {
    const { id } = c.req.valid("param");
    const query = c.req.valid("query");
    await found(store, id);
    const after = startAfter(query.after, c.req.valid("header")["last-event-id"]);
    const withRaw = query.raw !== "0";
    // DESIGN.md §9: this path answers SSE too, for an `Accept: text/event-stream` (a browser's EventSource)
    if (wantsStream(c)) return streamEvents(store, id, after, heartbeatMs, withRaw) as never;
    const stored = await store.readEvents(id, after, query.limit ?? EVENTS_PAGE_LIMIT);
    const events = withRaw ? stored : stored.map(withoutRaw);
    return c.json({ events, next: stored.at(-1)?.sequence ?? after }, 200);
  });

  app.openapi(streamEventsRoute, async (c) => {
    const { id } = c.req.valid("param");
    const query = c.req.valid("query");
    await found(store, id);
    const after = startAfter(query.after, c.req.valid("header")["last-event-id"]);
    return streamEvents(store, id, after, heartbeatMs, query.raw !== "0");
  });

  app.openapi(streamTicketRoute, async (c) => {
    const { id } = c.req.valid("param");
    await found(store, id);
    return c.json(tickets.issue(id), 201);
  });
}
