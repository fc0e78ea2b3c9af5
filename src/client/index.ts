/**
 * `provider-runtime/client`: a typed client of `provider-runtime serve`, and its sessions as RuntimeDrivers.
 * Pure (fetch, web streams, eventsource-parser): it runs in a browser and in Node.
 */

export type {
  CreateSessionBody,
  ErrorBody,
  Health,
  RespondBody,
  SessionSummary,
  TurnBody,
} from "../api/schemas.js";
export { RemoteApiError, RemoteConnectionError, RemoteProtocolError } from "./errors.js";
export type { FollowOptions } from "./event-follower.js";
export { DEFAULT_RECONNECT, type ReconnectPolicy } from "./reconnect.js";
export {
  RemoteClient,
  type RemoteClientOptions,
  type RemoteDriverOptions,
  type RemoteEventsPage,
  type RemoteSessionDetail,
  type SessionListFilter,
  type SessionListPage,
} from "./remote-client.js";
export { RemoteSession, type RemoteSessionOptions, type SessionApi } from "./remote-session.js";
export type { FetchLike, TransportOptions } from "./transport.js";
