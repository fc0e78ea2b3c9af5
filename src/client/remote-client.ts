import type { SessionSettingsBody } from "../api/control-schemas.js";
import type { CreateSessionBody, Health, RespondBody, SessionSummary, TurnBody } from "../api/schemas.js";
import type { ForkBody, SessionAdminPatch } from "../api/session-admin-schemas.js";
import type { AgentInfo, DriverProvider } from "../contracts/driver.js";
import type { RuntimeEvent } from "../contracts/events.js";
import type { ThreadView } from "../projection/thread-view.js";
import {
  healthOf,
  isCount,
  isObject,
  PAGE_LIMIT,
  sessionListOf,
  sessionPageOf,
  sessionSummaryOf,
} from "./bodies.js";
import { type FollowOptions, followEvents } from "./event-follower.js";
import { RemoteSession, type RemoteSessionOptions } from "./remote-session.js";
import { checkedEvent } from "./stream-event.js";
import { ApiTransport, type BodyParser, type TransportOptions } from "./transport.js";

export type RemoteClientOptions = TransportOptions;

/** `GET /v1/sessions/:id`: the session and the projection's thread view of its stored events. */
export interface RemoteSessionDetail {
  session: SessionSummary;
  view: ThreadView;
}

/** One page of stored events; `next` is the `after` of the following page. */
export interface RemoteEventsPage {
  events: RuntimeEvent[];
  next: number;
}

/** The filters of `GET /v1/sessions` (DESIGN.md §9). */
export interface SessionListFilter {
  q?: string;
  provider?: string;
  state?: SessionSummary["state"];
  /** True: the archived sessions only. */
  archived?: boolean;
  limit?: number;
  cursor?: string;
}

/** One page of the list; `next` is the cursor of the following page, absent on the last. */
export interface SessionListPage {
  sessions: SessionSummary[];
  next?: string;
}

/** What a remote session is created with: the body of `POST /v1/sessions` without the provider. */
export type RemoteDriverOptions = Omit<CreateSessionBody, "provider">;

const accepted: BodyParser<true> = () => true;

/**
 * A typed client of `provider-runtime serve` (DESIGN.md §9): one method per route, errors as RemoteApiError
 * (status and the server's message). Pure: `fetch` and web streams only, so it runs in a browser and in Node.
 */
export class RemoteClient {
  readonly #http: ApiTransport;

  constructor(options: RemoteClientOptions) {
    this.#http = new ApiTransport(options);
  }

  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /** `GET /v1/health`. */
  health(): Promise<Health> {
    return this.#http.call("GET", "/v1/health", [200], healthOf);
  }

  /** `POST /v1/sessions`: 403 for a cwd outside the server's root, 400 for a bad body. */
  createSession(body: CreateSessionBody): Promise<SessionSummary> {
    return this.#http.call("POST", "/v1/sessions", [200, 201], sessionSummaryOf, body);
  }

  /** `GET /v1/sessions`: the first page of the (unarchived) sessions, newest first. */
  listSessions(): Promise<SessionSummary[]> {
    return this.#http.call("GET", "/v1/sessions", [200], sessionListOf);
  }

  /** `GET /v1/sessions?q=&provider=&state=&archived=&limit=&cursor=`: one page, newest first. */
  list(filter: SessionListFilter = {}): Promise<SessionListPage> {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(filter)) {
      if (value === undefined) continue;
      query.set(key, typeof value === "boolean" ? (value ? "1" : "0") : String(value));
    }
    const search = query.size === 0 ? "" : `?${query.toString()}`;
    return this.#http.call("GET", `/v1/sessions${search}`, [200], sessionPageOf);
  }

  /** `POST /v1/sessions/:id/fork`: 400 for an unknown turn, 422 where the provider cannot fork. */
  fork(id: string, body: ForkBody = {}): Promise<SessionSummary> {
    return this.#http.call("POST", `${sessionPath(id)}/fork`, [200, 201], sessionSummaryOf, body);
  }

  /** `PATCH /v1/sessions/:id`: a title, archived or not. */
  update(id: string, body: SessionAdminPatch): Promise<SessionSummary> {
    return this.#http.call("PATCH", sessionPath(id), [200], sessionSummaryOf, body);
  }

  /** `DELETE /v1/sessions/:id?purge=1`: stops the agent and removes the session for good (404 afterwards). */
  async purge(id: string): Promise<void> {
    await this.#http.call("DELETE", `${sessionPath(id)}?purge=1`, [200, 202, 204], accepted);
  }

  /** `GET /v1/sessions/:id`: 404 for an unknown id. */
  getSession(id: string): Promise<RemoteSessionDetail> {
    const detail: BodyParser<RemoteSessionDetail> = (json) => {
      const session = isObject(json) ? sessionSummaryOf(json.session) : undefined;
      if (session === undefined || !isObject((json as { view?: unknown }).view)) return undefined;
      return { session, view: (json as { view: ThreadView }).view };
    };
    return this.#http.call("GET", sessionPath(id), [200], detail);
  }

  /** `POST /v1/sessions/:id/turns`: 409 while a turn runs. Resolves once the server has accepted the turn. */
  async sendTurn(id: string, body: TurnBody): Promise<void> {
    await this.#http.call("POST", `${sessionPath(id)}/turns`, [200, 202], accepted, body);
  }

  /**
   * `PATCH /v1/sessions/:id` with the model, mode or effort: 400 for a value the agent does not offer, an
   * `UnsupportedError` (422) for a setting it cannot change.
   */
  configure(id: string, body: SessionSettingsBody): Promise<SessionSummary> {
    return this.#http.call("PATCH", sessionPath(id), [200], sessionSummaryOf, body);
  }

  /** `GET /v1/agents` (`probe`: the server starts each installed agent briefly to read its models and modes). */
  listAgents(options: { probe?: boolean } = {}): Promise<AgentInfo[]> {
    const path = options.probe === true ? "/v1/agents?probe=1" : "/v1/agents";
    const agents: BodyParser<AgentInfo[]> = (json) =>
      isObject(json) && Array.isArray(json.agents) && json.agents.every(isAgentInfo)
        ? (json.agents as AgentInfo[])
        : undefined;
    return this.#http.call("GET", path, [200], agents);
  }

  /** `POST /v1/sessions/:id/requests/:requestId`: 404 unknown request, 409 already resolved. */
  async respond(id: string, requestId: string, body: RespondBody): Promise<void> {
    const path = `${sessionPath(id)}/requests/${encodeURIComponent(requestId)}`;
    await this.#http.call("POST", path, [200, 202], accepted, body);
  }

  /** `POST /v1/sessions/:id/interrupt`. */
  async interrupt(id: string): Promise<void> {
    await this.#http.call("POST", `${sessionPath(id)}/interrupt`, [200, 202], accepted);
  }

  /** `DELETE /v1/sessions/:id`: stops the agent; the stored log stays. */
  async stop(id: string): Promise<void> {
    await this.#http.call("DELETE", sessionPath(id), [200, 202, 204], accepted);
  }

  /** `GET /v1/sessions/:id/events` as JSON: up to `limit` (≤ 1,000) stored events after `after`. */
  eventsPage(id: string, options: { after?: number; limit?: number } = {}): Promise<RemoteEventsPage> {
    const after = options.after ?? 0;
    const limit = Math.min(options.limit ?? PAGE_LIMIT, PAGE_LIMIT);
    const path = `${sessionPath(id)}/events?after=${after}&limit=${limit}`;
    const route = `GET ${path}`;
    const page: BodyParser<RemoteEventsPage> = (json) => {
      if (!isObject(json) || !Array.isArray(json.events) || !isCount(json.next)) return undefined;
      const events = json.events.map((value: unknown) =>
        checkedEvent(route, id, value, () => JSON.stringify(value)),
      );
      return { events, next: json.next };
    };
    return this.#http.call("GET", path, [200], page);
  }

  /** Every stored event after `after`, page by page (no live events: see `follow`). */
  async *readEvents(id: string, options: { after?: number } = {}): AsyncGenerator<RuntimeEvent> {
    let after = options.after ?? 0;
    while (true) {
      const page = await this.eventsPage(id, { after });
      yield* page.events;
      if (page.events.length === 0 || page.next <= after) return;
      after = page.next;
    }
  }

  /**
   * A session's events over SSE: the stored ones after `options.after`, then live, each once and in order,
   * reconnecting after a drop (`Last-Event-ID`). Ends at a `session.exited` after which nothing is stored (a
   * resumed session goes on), or never with `untilExit: false`, or on `signal`.
   */
  follow(id: string, options: FollowOptions & { untilExit?: boolean } = {}): AsyncIterable<RuntimeEvent> {
    const untilExit = options.untilExit ?? true;
    return {
      [Symbol.asyncIterator]: () =>
        followEvents(this.#http, id, options, {
          endsAt: async (event) => untilExit && (await this.nothingStoredAfter(id, event.sequence)),
        }),
    };
  }

  /**
   * Creates a session on the server and returns it as a RuntimeDriver: the remote twin of the in-process
   * `createDriver(provider, options)`.
   */
  async createDriver(provider: DriverProvider, options: RemoteDriverOptions = {}): Promise<RemoteSession> {
    const summary = await this.createSession({ ...options, provider });
    return new RemoteSession(this, checkedProvider(summary), summary.id);
  }

  /** A RuntimeDriver for a session the server already has (e.g. after the host restarted). */
  async attach(id: string, options: RemoteSessionOptions = {}): Promise<RemoteSession> {
    const { session } = await this.getSession(id);
    return new RemoteSession(this, checkedProvider(session), session.id, options);
  }

  /** @internal Whether the server holds no event of the session after `sequence` (the exit rule). */
  async nothingStoredAfter(id: string, sequence: number): Promise<boolean> {
    return (await this.eventsPage(id, { after: sequence, limit: 1 })).events.length === 0;
  }

  /** @internal RemoteSession's stream. */
  followWith(
    id: string,
    options: FollowOptions,
    control: Parameters<typeof followEvents>[3],
  ): AsyncGenerator<RuntimeEvent, void, undefined> {
    return followEvents(this.#http, id, options, control);
  }
}

const DRIVEN: readonly string[] = [
  "codex",
  "codex-sdk",
  "claude",
  "cursor",
  "acp",
] satisfies DriverProvider[];

function checkedProvider(summary: SessionSummary): DriverProvider {
  if (!DRIVEN.includes(summary.provider))
    throw new Error(`session ${summary.id} is a ${summary.provider} history, not a session an agent runs`);
  return summary.provider as DriverProvider;
}

function isAgentInfo(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.provider === "string" &&
    typeof value.installed === "boolean" &&
    typeof value.testedVersion === "string" &&
    isObject(value.capabilities)
  );
}

function sessionPath(id: string): string {
  return `/v1/sessions/${encodeURIComponent(id)}`;
}
