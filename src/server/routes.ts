import * as z from "zod";
import { UnsupportedBody } from "../api/control-schemas.js";
import {
  CreateSessionBody,
  EventStreamQuery,
  EventsPage,
  EventsQuery,
  Health,
  RespondBody,
  SessionDetail,
  SessionList,
  SessionQuery,
  SessionSummary,
  StreamTicket,
  TurnBody,
} from "../api/schemas.js";
import { ListSessionsQuery, PurgeQuery } from "../api/session-admin-schemas.js";
import { apiRoute, BEARER, errorBody, json } from "./api-route.js";

/**
 * The routes of DESIGN.md §9 as OpenAPI route configs: the server validates requests with these schemas and
 * publishes them as its OpenAPI document, so the two cannot drift apart.
 */

const SessionParams = z.object({ id: z.string().min(1).describe("The canonical session id.") });
const RequestParams = SessionParams.extend({
  requestId: z.string().min(1).describe("The request's canonical id (`requestId` of `request.opened`)."),
});
const Accepted = z.object({ accepted: z.literal(true) });
const COMMON_ERRORS = {
  401: errorBody("No valid bearer token."),
  404: errorBody("No session with this id."),
} as const;
/** The events routes take the bearer token or a stream ticket (`?ticket=`). */
const BEARER_OR_TICKET = [{ bearer: [] }, { streamTicket: [] }];
const LastEventIdHeader = z.object({
  "last-event-id": z.string().regex(/^\d+$/).optional().describe("SSE: resume after this sequence."),
});

export const healthRoute = apiRoute({
  method: "get",
  path: "/v1/health",
  operationId: "getHealth",
  summary: "Liveness and version; needs no token.",
  security: [],
  responses: { 200: json(Health, "The server is up.") },
});

export const createSessionRoute = apiRoute({
  method: "post",
  path: "/v1/sessions",
  operationId: "createSession",
  summary: "Starts an agent session.",
  security: BEARER,
  request: { body: { ...json(CreateSessionBody, "The session to start."), required: true } },
  responses: {
    201: json(SessionSummary, "The session, its agent started (or failed: its stream says why)."),
    400: errorBody("A bad body, an unknown provider or a missing cwd."),
    401: errorBody("No valid bearer token."),
    403: errorBody("The cwd lies outside the server's --root."),
    413: errorBody("The body is too large."),
    503: errorBody(
      "The server is shutting down, or the agent cannot start (e.g. its package is not installed).",
    ),
  },
});

export const listSessionsRoute = apiRoute({
  method: "get",
  path: "/v1/sessions",
  operationId: "listSessions",
  summary: "A page of the registry, newest first; or (as SSE) the whole list and its changes.",
  description:
    "Filters by provider, state and archived (archived ones only with `archived=1`); `q` matches words of " +
    "titles and prompts; `next` is the cursor of the following page. With `Accept: text/event-stream` an SSE " +
    "stream of the whole list instead (the query is not applied): `event: snapshot` (`{sessions}`), then " +
    "`event: session` (a session's new summary) at each change of its state, title, archived flag, open " +
    "requests or last sequence, and `event: removed` (`{id}`), a heartbeat comment every 15 s.",
  security: BEARER,
  request: { query: ListSessionsQuery },
  responses: {
    200: {
      content: {
        ...json(SessionList, "The sessions.").content,
        "text/event-stream": {
          schema: z
            .string()
            .describe(
              "`event: snapshot` with `{sessions}`, then `event: session` and `event: removed` messages.",
            ),
        },
      },
      description: "A page of the sessions, or the list's stream.",
    },
    400: errorBody("A bad query or cursor."),
    401: errorBody("No valid bearer token."),
  },
});

export const getSessionRoute = apiRoute({
  method: "get",
  path: "/v1/sessions/{id}",
  operationId: "getSession",
  summary: "One session and the projection of its stored events.",
  security: BEARER,
  request: { params: SessionParams, query: SessionQuery },
  responses: {
    200: json(SessionDetail, "The session and its thread view."),
    400: errorBody("A bad query."),
    ...COMMON_ERRORS,
  },
});

export const turnRoute = apiRoute({
  method: "post",
  path: "/v1/sessions/{id}/turns",
  operationId: "startTurn",
  summary:
    "Starts a turn; an exited session's agent is resumed natively first. While a turn runs, `delivery` says whether to refuse (409), queue or steer.",
  security: BEARER,
  request: { params: SessionParams, body: { ...json(TurnBody, "The prompt."), required: true } },
  responses: {
    202: json(Accepted, "The agent took the turn; its events follow on the stream."),
    400: errorBody("A bad body."),
    ...COMMON_ERRORS,
    409: errorBody("A turn is already running, or the session cannot take turns."),
    413: errorBody("The body is too large."),
    422: json(UnsupportedBody, "The agent cannot do what was asked (steer, an attachment kind), and why."),
    503: errorBody("The server is shutting down, or the agent cannot be resumed."),
  },
});

export const respondRoute = apiRoute({
  method: "post",
  path: "/v1/sessions/{id}/requests/{requestId}",
  operationId: "respondToRequest",
  summary: "Answers an open request (an approval or a question).",
  security: BEARER,
  request: { params: RequestParams, body: { ...json(RespondBody, "The decision."), required: true } },
  responses: {
    200: json(Accepted, "The answer went to the agent."),
    400: errorBody("A bad body, or an answer the request cannot take."),
    ...COMMON_ERRORS,
    409: errorBody("The request is already resolved."),
    413: errorBody("The body is too large."),
  },
});

export const interruptRoute = apiRoute({
  method: "post",
  path: "/v1/sessions/{id}/interrupt",
  operationId: "interruptTurn",
  summary: "Interrupts the running turn.",
  security: BEARER,
  request: { params: SessionParams },
  responses: {
    202: json(Accepted, "The interrupt went to the agent."),
    ...COMMON_ERRORS,
    409: errorBody("The agent is not running."),
  },
});

export const stopSessionRoute = apiRoute({
  method: "delete",
  path: "/v1/sessions/{id}",
  operationId: "stopSession",
  summary: "Stops the agent; the log stays. With `purge=1` the session is removed for good.",
  security: BEARER,
  request: { params: SessionParams, query: PurgeQuery },
  responses: {
    200: json(SessionSummary, "The session, its agent stopped (and removed, with purge)."),
    ...COMMON_ERRORS,
    422: errorBody("The store cannot remove sessions."),
  },
});

/**
 * The JSON page of the events. The same path with `Accept: text/event-stream` answers the SSE stream of
 * `streamEventsRoute` (DESIGN.md §9); the document keeps the two apart so that a generated client types the page.
 */
export const eventsRoute = apiRoute({
  method: "get",
  path: "/v1/sessions/{id}/events",
  operationId: "listSessionEvents",
  summary: "A page of the session's stored events after `after`.",
  description:
    "Up to `limit` (≤ 1,000) stored events after `after`. With `Accept: text/event-stream` this path answers " +
    "the SSE stream instead, exactly as `GET /v1/sessions/{id}/events/stream` does.",
  security: BEARER_OR_TICKET,
  request: { params: SessionParams, query: EventsQuery, headers: LastEventIdHeader },
  responses: {
    200: json(EventsPage, "The page; `next` is the `after` of the following one."),
    400: errorBody("A bad query."),
    ...COMMON_ERRORS,
  },
});

export const streamEventsRoute = apiRoute({
  method: "get",
  path: "/v1/sessions/{id}/events/stream",
  operationId: "streamSessionEvents",
  summary: "The session's events as Server-Sent Events: the stored ones after `after`, then live.",
  description:
    "One SSE message per canonical event: `id: <sequence>` and `data: <RuntimeEvent JSON>` " +
    "(`#/components/schemas/RuntimeEvent`). First the stored events after `after` (or after `Last-Event-ID`, " +
    "which wins), then live ones, with a `: heartbeat` comment every 15 s; after `session.exited` of a session " +
    "that cannot resume, the stream ends. A browser's EventSource passes `ticket` instead of the token.",
  security: BEARER_OR_TICKET,
  request: { params: SessionParams, query: EventStreamQuery, headers: LastEventIdHeader },
  responses: {
    200: {
      content: {
        "text/event-stream": {
          schema: z
            .string()
            .describe(
              "SSE messages `id: <sequence>\\ndata: <RuntimeEvent JSON>\\n\\n`, and heartbeat comments.",
            ),
        },
      },
      description: "The stream.",
    },
    400: errorBody("A bad query."),
    ...COMMON_ERRORS,
  },
});

export const streamTicketRoute = apiRoute({
  method: "post",
  path: "/v1/sessions/{id}/events/tickets",
  operationId: "createStreamTicket",
  summary: "A ticket for one EventSource subscription to this session's events (single use, 60 s).",
  description:
    "A browser's native EventSource cannot send the Authorization header: it opens " +
    "`GET /v1/sessions/{id}/events?ticket=T` instead. A ticket is good for one request, to this session only, " +
    "within 60 s; the token itself never goes into a URL.",
  security: BEARER,
  request: { params: SessionParams },
  responses: { 201: json(StreamTicket, "The ticket."), ...COMMON_ERRORS },
});

export const ROUTES = [
  healthRoute,
  createSessionRoute,
  listSessionsRoute,
  getSessionRoute,
  turnRoute,
  respondRoute,
  interruptRoute,
  stopSessionRoute,
  eventsRoute,
  streamEventsRoute,
  streamTicketRoute,
] as const;
