import type { CreateSessionBody, RespondBody, SessionList, SessionSummary } from "../../src/api/schemas.js";
import type { SessionPatchBody } from "../../src/api/session-admin-schemas.js";
import type { AgentInfo, TurnDelivery as Delivery } from "../../src/contracts/commands.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import type { ThreadView } from "../../src/projection/thread-view.js";
import type { InlineAttachment as Attachment } from "./command-surface.js";

/** A non-2xx answer of the server, with its `{error}` sentence when it gave one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The session server's routes (DESIGN.md §9), each call with the bearer token. */
export class InspectorApi {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
    readonly onUnauthorized: () => void = () => {},
  ) {}

  /** One session and the projection of its stored events (the inbox reads its open requests from it). */
  getSession(sessionId: string): Promise<{ session: SessionSummary; view: ThreadView }> {
    return this.#call("GET", `/v1/sessions/${encodeURIComponent(sessionId)}`);
  }

  /** One stored event, its native record (`raw`) included. */
  async event(sessionId: string, sequence: number): Promise<RuntimeEvent | undefined> {
    const path = `/v1/sessions/${encodeURIComponent(sessionId)}/events?after=${sequence - 1}&limit=1`;
    const page = await this.#call<{ events: RuntimeEvent[] }>("GET", path);
    return page.events.find((e) => e.sequence === sequence);
  }

  createSession(body: CreateSessionBody): Promise<SessionSummary> {
    return this.#call("POST", "/v1/sessions", body);
  }

  sendTurn(
    sessionId: string,
    text: string,
    extra: { attachments?: Attachment[]; delivery?: Delivery } = {},
  ): Promise<unknown> {
    const body = {
      text,
      ...(extra.attachments !== undefined && extra.attachments.length > 0
        ? { attachments: extra.attachments.map(({ name: _, ...a }) => a) }
        : {}),
      ...(extra.delivery === undefined || extra.delivery === "reject" ? {} : { delivery: extra.delivery }),
    };
    return this.#call("POST", `/v1/sessions/${encodeURIComponent(sessionId)}/turns`, body);
  }

  /** Sessions whose title or prompts match `q` (the server's search); with `archived`, the archived ones only. */
  searchSessions(q: string, options: { archived?: boolean } = {}): Promise<SessionList> {
    const archived = options.archived === true ? "&archived=1" : "";
    return this.#call("GET", `/v1/sessions?q=${encodeURIComponent(q)}&limit=200${archived}`);
  }

  configure(sessionId: string, body: SessionPatchBody): Promise<SessionSummary> {
    return this.#call("PATCH", `/v1/sessions/${encodeURIComponent(sessionId)}`, body);
  }

  fork(sessionId: string, afterTurnId?: string): Promise<SessionSummary> {
    const body = afterTurnId === undefined ? {} : { afterTurnId };
    return this.#call("POST", `/v1/sessions/${encodeURIComponent(sessionId)}/fork`, body);
  }

  /** Stops the agent and removes the session's stored events and native state. */
  deleteSession(sessionId: string): Promise<unknown> {
    return this.#call("DELETE", `/v1/sessions/${encodeURIComponent(sessionId)}?purge=1`);
  }

  listAgents(): Promise<{ agents: AgentInfo[] }> {
    return this.#call("GET", "/v1/agents");
  }

  respond(sessionId: string, requestId: string, body: RespondBody): Promise<unknown> {
    const path = `/v1/sessions/${encodeURIComponent(sessionId)}/requests/${encodeURIComponent(requestId)}`;
    return this.#call("POST", path, body);
  }

  interrupt(sessionId: string): Promise<unknown> {
    return this.#call("POST", `/v1/sessions/${encodeURIComponent(sessionId)}/interrupt`);
  }

  stop(sessionId: string): Promise<unknown> {
    return this.#call("DELETE", `/v1/sessions/${encodeURIComponent(sessionId)}`);
  }

  /** The session list as SSE: a snapshot, then each session's summary when it changes. */
  sessionsUrl(): string {
    return `${this.baseUrl}/v1/sessions`;
  }

  /** The SSE route: the sequence goes in `after` (never the token, which is a header). */
  eventsUrl(sessionId: string, after: number): string {
    return `${this.baseUrl}/v1/sessions/${encodeURIComponent(sessionId)}/events?after=${after}`;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { Authorization: `Bearer ${this.token}`, ...extra };
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: this.headers(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status === 401) this.onUnauthorized();
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const message =
        typeof parsed === "object" &&
        parsed !== null &&
        typeof (parsed as { error?: unknown }).error === "string"
          ? (parsed as { error: string }).error
          : `${response.status} ${response.statusText}`;
      throw new ApiError(response.status, message);
    }
    return parsed as T;
  }
}
