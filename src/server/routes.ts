import { createRoute } from "@hono/zod-openapi";
import * as z from "zod";
import {
  CreateSessionBody,
  ErrorBody,
  EventsPage,
  EventsQuery,
  Health,
  RespondBody,
  SessionDetail,
  SessionList,
  SessionSummary,
  TurnBody,
} from "../api/schemas.js";

/**
 * The routes of DESIGN.md §9 as OpenAPI route configs: the server validates requests with these schemas and
 * publishes them as its OpenAPI document, so the two cannot drift apart.
 */

const json = <S extends z.ZodType>(schema: S, description: string) => ({
  content: { "application/json": { schema } },
  description,
});
const error = (description: string) => json(ErrorBody, description);
const secured = [{ bearer: [] }];

const SessionParams = z.object({ id: z.string().min(1).describe("The canonical session id.") });
const RequestParams = SessionParams.extend({
  requestId: z.string().min(1).describe("The request's canonical id (`requestId` of `request.opened`)."),
});
const Accepted = z.object({ accepted: z.literal(true) });
const COMMON_ERRORS = {
  401: error("No valid bearer token."),
  404: error("No session with this id."),
} as const;

export const healthRoute = createRoute({
  method: "get",
  path: "/v1/health",
  summary: "Liveness and version; needs no token.",
  responses: { 200: json(Health, "The server is up.") },
});

export const createSessionRoute = createRoute({
  method: "post",
  path: "/v1/sessions",
  summary: "Starts an agent session.",
  security: secured,
  request: { body: { ...json(CreateSessionBody, "The session to start."), required: true } },
  responses: {
    201: json(SessionSummary, "The session, its agent started (or failed: its stream says why)."),
    400: error("A bad body, an unknown provider or a missing cwd."),
    401: error("No valid bearer token."),
    403: error("The cwd lies outside the server's --root."),
    413: error("The body is too large."),
    503: error("The server is shutting down, or the agent cannot start (e.g. its package is not installed)."),
  },
});

export const listSessionsRoute = createRoute({
  method: "get",
  path: "/v1/sessions",
  summary:
    "Every session of the registry; with `Accept: text/event-stream` an SSE stream of the list: `event: snapshot` " +
    "(`{sessions}`), then `event: session` (a session's new summary) at each change of its state, title, open " +
    "requests or last sequence, and `event: removed` (`{id}`), a heartbeat comment every 15 s.",
  security: secured,
  responses: {
    200: {
      content: {
        "application/json": { schema: SessionList },
        "text/event-stream": { schema: z.string().describe("The list's snapshot, then its changes.") },
      },
      description: "The sessions.",
    },
    401: error("No valid bearer token."),
  },
});

export const getSessionRoute = createRoute({
  method: "get",
  path: "/v1/sessions/{id}",
  summary: "One session and the projection of its stored events.",
  security: secured,
  request: { params: SessionParams },
  responses: { 200: json(SessionDetail, "The session and its thread view."), ...COMMON_ERRORS },
});

export const turnRoute = createRoute({
  method: "post",
  path: "/v1/sessions/{id}/turns",
  summary: "Starts a turn; an exited session's agent is resumed natively first.",
  security: secured,
  request: { params: SessionParams, body: { ...json(TurnBody, "The prompt."), required: true } },
  responses: {
    202: json(Accepted, "The agent took the turn; its events follow on the stream."),
    400: error("A bad body."),
    ...COMMON_ERRORS,
    409: error("A turn is already running, or the session cannot take turns."),
    413: error("The body is too large."),
    503: error("The server is shutting down, or the agent cannot be resumed."),
  },
});

export const respondRoute = createRoute({
  method: "post",
  path: "/v1/sessions/{id}/requests/{requestId}",
  summary: "Answers an open request (an approval or a question).",
  security: secured,
  request: { params: RequestParams, body: { ...json(RespondBody, "The decision."), required: true } },
  responses: {
    200: json(Accepted, "The answer went to the agent."),
    400: error("A bad body, or an answer the request cannot take."),
    ...COMMON_ERRORS,
    409: error("The request is already resolved."),
    413: error("The body is too large."),
  },
});

export const interruptRoute = createRoute({
  method: "post",
  path: "/v1/sessions/{id}/interrupt",
  summary: "Interrupts the running turn.",
  security: secured,
  request: { params: SessionParams },
  responses: {
    202: json(Accepted, "The interrupt went to the agent."),
    ...COMMON_ERRORS,
    409: error("The agent is not running."),
  },
});

export const stopSessionRoute = createRoute({
  method: "delete",
  path: "/v1/sessions/{id}",
  summary: "Stops the agent; the log stays.",
  security: secured,
  request: { params: SessionParams },
  responses: { 200: json(SessionSummary, "The session, its agent stopped."), ...COMMON_ERRORS },
});

export const eventsRoute = createRoute({
  method: "get",
  path: "/v1/sessions/{id}/events",
  summary:
    "The session's events after `after` (or `Last-Event-ID`): a JSON page, or with `Accept: text/event-stream` " +
    "an SSE stream (`id: <sequence>`), stored events first and then live ones, a heartbeat comment every 15 s.",
  security: secured,
  request: {
    params: SessionParams,
    query: EventsQuery,
    headers: z.object({
      "last-event-id": z.string().regex(/^\d+$/).optional().describe("SSE: resume after this sequence."),
    }),
  },
  responses: {
    200: {
      content: {
        "application/json": { schema: EventsPage },
        "text/event-stream": { schema: z.string().describe("One SSE message per canonical event.") },
      },
      description: "The events.",
    },
    400: error("A bad query."),
    ...COMMON_ERRORS,
  },
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
] as const;
