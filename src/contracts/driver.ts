import type {
  DriverCapabilities,
  McpServerSpec,
  SessionSettings,
  TurnAttachment,
  TurnDelivery,
} from "./commands.js";
import type { ApprovalDecision } from "./enums.js";
import type { RuntimeEvent } from "./events.js";

export * from "./commands.js";

export type DriverProvider = "codex" | "codex-sdk" | "claude" | "cursor" | "acp";

/** A host's answer to a `request.opened` / `user-input.requested`, the same for every provider. */
export interface RequestResponse {
  decision: ApprovalDecision;
  /** Answers to `user-input.requested` questions, keyed by question id (or question text). */
  answers?: Record<string, string | string[]>;
  /** A message to the agent with a decline. */
  message?: string;
  /** Provider-specific extras (e.g. a Codex dynamic tool call result, an ACP optionId). */
  payload?: unknown;
}

export interface TurnInput {
  text: string;
  /** Images and files, given to the agent as its native input (`capabilities.attachments` says which). */
  attachments?: TurnAttachment[];
  /**
   * While a turn runs: `queue` starts this one when it ends, `steer` adds the text to the running turn (a
   * `user_message` item of it). Left out, or `reject`: the provider's own behaviour (the server answers 409).
   */
  delivery?: TurnDelivery;
}

export interface DriverOptions {
  /** Working directory of the agent. */
  cwd: string;
  /** Canonical session id; default: a fresh one. */
  sessionId?: string;
  /**
   * The sequence of the session's last stored event: a session resumed with the same `sessionId` goes on from
   * it (the server's restore). Default 0.
   */
  sequenceAfter?: number;
  model?: string;
  /** The starting mode: canonical (`ask | edits | plan | full`) or a native mode id. */
  mode?: string;
  /** The starting reasoning effort (`minimal | low | medium | high`). */
  effort?: string;
  /** MCP servers given to the agent natively; their calls are `mcp_tool_call` items with `details.server`. */
  mcpServers?: McpServerSpec[];
  /** Base URL of a model server to use instead of the real API (the mock model). */
  modelBaseUrl?: string;
  /** Resume a provider session/thread by its native id. */
  resume?: string;
  /**
   * Extra environment for the agent process, over the allowlist it gets from this process's environment (see
   * `src/drivers/agent-env.ts`): the host's explicit choice, passed as given, also with a mock model.
   */
  env?: Record<string, string>;
  /**
   * The agent program to run instead of the installed package's: codex (app-server), the codex binary of
   * codex exec, Claude Code. ACP agents take `agentCommand`.
   */
  executablePath?: string;
  /** Receives every native record as a transcript line (DESIGN.md §3). */
  record?: (line: string) => void;
  /** Clock for live events (default: wall time). */
  clock?: () => string;
  /** The agent's command line, replacing the default (an ACP agent; a wrapped `codex app-server`). */
  agentCommand?: string[];
  /** Milliseconds to wait for the agent's handshake before failing. */
  startTimeoutMs?: number;
  /** Events the host may fall behind by before the driver stops reading the agent (default 1,000). */
  highWaterMark?: number;
  /**
   * How much lower than this process the agent runs, and all it starts (its tools, builds): a whole number 0–19
   * added to this process's Unix niceness, capped at 19, so a busy agent leaves the host's CPU to the host.
   * Default 0 (the host's priority); another value makes the driver's constructor throw a RangeError. 19 also
   * runs the agent in Linux's SCHED_IDLE class (where util-linux `chrt` is installed): it gives the CPU up at
   * once when a host thread wakes, instead of at the end of its time slice.
   */
  niceness?: number;
  /**
   * Start as a fork of another session (what `fork()` sets; a host that keeps the parent's events may set it
   * itself): the agent opens a native copy of the parent's conversation up to `nativeTurn` instead of a new one.
   */
  forkOf?: ForkSource;
}

/** What a forked driver opens, and what its `session.started` says it was forked from. */
export interface ForkSource {
  /** The parent's canonical session id (`forkedFrom.sessionId`). */
  sessionId: string;
  /** The parent's canonical turn the fork ends with (`forkedFrom.turnId`); absent: the whole conversation. */
  turnId?: string;
  /** The parent's native thread / session id. */
  nativeId: string;
  /**
   * The native mark of `turnId` (see `forkAnchorOf`): Codex's turn id, the uuid of Claude's last message of the
   * turn. Absent with `turnId` absent.
   */
  nativeTurn?: string;
  /**
   * The parent's native home (CODEX_HOME, Claude's config dir), copied into the fork's own before its agent
   * starts, when the fork has a home of its own (a temp one): the agent then finds the parent's thread there.
   */
  seedHome?: string;
}

export interface ForkOptions {
  /** The parent's canonical turn the fork ends with; default: all of the parent's conversation. */
  afterTurnId?: string;
  /** The new driver's options over the parent's (its own `sessionId`, an `env` with its own native home). */
  options?: Partial<Omit<DriverOptions, "forkOf" | "resume" | "sequenceAfter">>;
}

/** One interface for every agent program. */
export interface RuntimeDriver {
  readonly provider: DriverProvider;
  readonly sessionId: string;
  /** Canonical events, in sequence order, until the session has exited. */
  readonly events: AsyncIterable<RuntimeEvent>;
  /** What this driver can do; after `start()` also the models and modes the agent reported. */
  readonly capabilities: DriverCapabilities;
  /** Spawns the program and completes its handshake. */
  start(): Promise<void>;
  /** Starts a turn; resolves when the turn has been accepted (not when it ends). */
  sendTurn(input: TurnInput): Promise<void>;
  /** Answers an open request; rejects with a clear error for an unknown or already-resolved request. */
  respond(requestId: string, response: RequestResponse): Promise<void>;
  interrupt(): Promise<void>;
  /**
   * Changes the model, mode or effort for the turns that follow (emits `session.configured` with what changed).
   * A value the agent does not offer is an `InvalidCommandError`; a setting it cannot change an `UnsupportedError`.
   */
  configure(settings: SessionSettings): Promise<void>;
  /** Ends the session: pending requests resolve as `cancel`, the open turn ends, `session.exited` follows. */
  stop(): Promise<void>;
  /**
   * A new driver (not started) on a new canonical session whose agent holds this session's conversation up to
   * `afterTurnId` and nothing after it; its `session.started` says `forkedFrom`. This session is untouched. Rejects
   * with `UnsupportedError` where the provider cannot fork, and with `UnknownTurnError` for a turn this driver
   * has not seen.
   */
  fork(options?: ForkOptions): Promise<RuntimeDriver>;
  /**
   * Names the session's thread: a `thread.metadata.updated` with the name in the stream (Codex: `thread/name/set`,
   * whose notification it is). Absent on a driver that cannot.
   */
  rename?(title: string): Promise<void>;
  /**
   * A `runtime.warning` of the host's making (e.g. the server's store is unreachable), in sequence with the
   * session's events. Ignored once the session has exited.
   */
  warn?(message: string, detail?: Record<string, unknown>): void;
}

export class UnknownRequestError extends Error {
  constructor(requestId: string) {
    super(`no open request with id ${requestId} (unknown or already resolved)`);
    this.name = "UnknownRequestError";
  }
}

export class UnknownTurnError extends Error {
  constructor(readonly turnId: string) {
    super(`no completed turn ${turnId} in this session`);
    this.name = "UnknownTurnError";
  }
}

/**
 * What a provider cannot do (steer a turn, change a setting, fork), named with the provider and the reason. The
 * server answers it as 422 `{error: "unsupported", reason}` and the remote client turns that back into this error.
 */
export class UnsupportedError extends Error {
  constructor(
    readonly provider: string,
    readonly operation: string,
    readonly reason: string,
  ) {
    super(`${provider} cannot ${operation}: ${reason}`);
    this.name = "UnsupportedError";
  }
}

/**
 * A value the agent does not offer (a model or mode it did not list, a bad attachment): the server answers it as
 * 400 `{error, field}`.
 */
export class InvalidCommandError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = "InvalidCommandError";
  }
}
