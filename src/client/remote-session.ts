import type { SessionSettingsBody } from "../api/control-schemas.js";
import type { RespondBody, SessionSummary, TurnBody } from "../api/schemas.js";
import type { ForkBody } from "../api/session-admin-schemas.js";
import {
  type AgentInfo,
  type DriverCapabilities,
  type DriverProvider,
  type ForkOptions,
  type RequestResponse,
  type RuntimeDriver,
  type SessionSettings,
  type TurnInput,
  UnknownRequestError,
  UnsupportedError,
} from "../contracts/driver.js";
import type { RuntimeEvent } from "../contracts/events.js";
import { RemoteApiError } from "./errors.js";
import type { FollowControl, FollowOptions } from "./event-follower.js";

/** The calls a RemoteSession makes on its server (the RemoteClient is one). */
export interface SessionApi {
  sendTurn(id: string, body: TurnBody): Promise<void>;
  configure(id: string, body: SessionSettingsBody): Promise<unknown>;
  listAgents(): Promise<AgentInfo[]>;
  respond(id: string, requestId: string, body: RespondBody): Promise<void>;
  interrupt(id: string): Promise<void>;
  stop(id: string): Promise<void>;
  fork(id: string, body: ForkBody): Promise<SessionSummary>;
  nothingStoredAfter(id: string, sequence: number): Promise<boolean>;
  /** @internal The session's stream. */
  followWith(
    id: string,
    options: FollowOptions,
    control: FollowControl,
  ): AsyncGenerator<RuntimeEvent, void, undefined>;
}

const NO_CAPABILITIES: DriverCapabilities = {
  approvals: false,
  questions: false,
  subagents: false,
  plan: false,
  attachments: [],
  steer: false,
  queue: false,
  fork: false,
  setModel: false,
  setMode: false,
  effort: false,
  mcpServers: false,
  resume: false,
};

/** How a RemoteSession reads its stream. */
export interface RemoteSessionOptions extends Omit<FollowOptions, "signal"> {}

/** The last turn sent through this session: whether its `turn.started` has been seen yet. */
interface SentTurn {
  /** The last sequence delivered when the turn was sent: its events come after it. */
  after: number;
  settled: Promise<boolean>;
  accepted: boolean;
  shown: boolean;
}

/**
 * A server's session as a RuntimeDriver: the same interface as an in-process driver, over HTTP and SSE.
 *
 * `events` is the session's stream from `options.after` (default: its first event), each event once and in
 * order across reconnects. It ends at a `session.exited` after which the session does not go on: it goes on when
 * the server already holds later events (a stored stream with a resume in it), or when a turn sent through this
 * session was in flight or accepted and its `turn.started` has not come yet (that turn resumes the agent). A
 * `stop()` through this session ends it at the exit. Iterating `events` again (e.g. after a resume turn sent
 * once the loop ended) continues after the last event delivered; one iteration at a time.
 */
export class RemoteSession implements RuntimeDriver {
  readonly events: AsyncIterable<RuntimeEvent>;
  /** The server's word for the provider (`GET /v1/agents`), read by `start()`; all false until then. */
  capabilities: DriverCapabilities = NO_CAPABILITIES;
  #delivered: number;
  #iterating = false;
  #stopped = false;
  #lastTurn: SentTurn | undefined;

  constructor(
    readonly client: SessionApi,
    readonly provider: DriverProvider,
    readonly sessionId: string,
    readonly options: RemoteSessionOptions = {},
  ) {
    this.#delivered = options.after ?? 0;
    this.events = { [Symbol.asyncIterator]: () => this.#iterate() };
  }

  /** The sequence of the last event `events` delivered. */
  get lastSequence(): number {
    return this.#delivered;
  }

  /**
   * The server starts the agent when it creates the session (a failed start shows in `events`); this reads the
   * provider's capabilities from the server's catalog.
   */
  async start(): Promise<void> {
    const agents = await this.client.listAgents().catch(() => []);
    const info = agents.find((agent) => agent.provider === this.provider);
    if (info !== undefined) this.capabilities = info.capabilities;
  }

  /** `PATCH /v1/sessions/:id`; a setting the agent cannot change rejects with `UnsupportedError` (422). */
  async configure(settings: SessionSettings): Promise<void> {
    await this.client.configure(this.sessionId, settings as SessionSettingsBody);
  }

  async sendTurn(input: TurnInput): Promise<void> {
    this.#stopped = false;
    const body: TurnBody = { text: input.text };
    if (input.attachments !== undefined) body.attachments = input.attachments as TurnBody["attachments"];
    if (input.delivery !== undefined) body.delivery = input.delivery;
    const sending = this.client.sendTurn(this.sessionId, body);
    const turn: SentTurn = {
      after: this.#delivered,
      accepted: false,
      shown: false,
      settled: sending.then(
        () => true,
        () => false,
      ),
    };
    this.#lastTurn = turn;
    await sending.catch((error: unknown) => {
      if (this.#lastTurn === turn) this.#lastTurn = undefined;
      throw error;
    });
    turn.accepted = true;
  }

  async respond(requestId: string, response: RequestResponse): Promise<void> {
    try {
      await this.client.respond(this.sessionId, requestId, response);
    } catch (error) {
      if (error instanceof RemoteApiError && (error.status === 404 || error.status === 409))
        throw new UnknownRequestError(requestId);
      throw error;
    }
  }

  interrupt(): Promise<void> {
    return this.client.interrupt(this.sessionId);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.client.stop(this.sessionId);
  }

  /** `POST /v1/sessions/:id/fork`: the server starts the fork's agent; driver options are the server's. */
  async fork(options: ForkOptions = {}): Promise<RuntimeDriver> {
    const body: ForkBody = options.afterTurnId === undefined ? {} : { afterTurnId: options.afterTurnId };
    try {
      const summary = await this.client.fork(this.sessionId, body);
      return new RemoteSession(this.client, this.provider, summary.id);
    } catch (error) {
      if (error instanceof RemoteApiError && error.status === 422)
        throw new UnsupportedError(this.provider, "fork", error.message);
      throw error;
    }
  }

  async *#iterate(): AsyncGenerator<RuntimeEvent, void, undefined> {
    if (this.#iterating) throw new Error(`session ${this.sessionId}: events is already being iterated`);
    this.#iterating = true;
    try {
      yield* this.client.followWith(
        this.sessionId,
        { ...this.options, after: this.#delivered },
        {
          delivered: (event) => this.#saw(event),
          endsAt: (event) => this.#endsAt(event),
        },
      );
    } finally {
      this.#iterating = false;
    }
  }

  #saw(event: RuntimeEvent): void {
    this.#delivered = event.sequence;
    const turn = this.#lastTurn;
    if (event.type === "turn.started" && turn !== undefined && event.sequence > turn.after) turn.shown = true;
  }

  async #endsAt(exit: RuntimeEvent): Promise<boolean> {
    const turn = this.#lastTurn;
    if (turn !== undefined && !turn.shown && !this.#stopped) {
      // A turn sent through this session whose turn.started has not come: it comes after this exit (the turn
      // resumes the agent). It is used up here, so a resume that fails before its turn starts ends the stream
      // at its own exit.
      this.#lastTurn = undefined;
      if (await turn.settled) return false;
    }
    return this.client.nothingStoredAfter(this.sessionId, exit.sequence);
  }
}
