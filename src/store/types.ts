import type { McpServerSpec } from "../contracts/commands.js";
import type { SessionState } from "../contracts/enums.js";
import type { RuntimeEvent } from "../contracts/events.js";

/** Where a stored session came from: a live agent the server ran, or a history file `import` read. */
export type SessionOrigin = "live" | "import";

/**
 * One session of the registry. The server writes `provider`..`native` when it creates or resumes a session and
 * keeps the summary fields (`state`, `lastSequence`, `openRequests`, `title`, `exited`) in step with the events.
 */
export interface SessionRecord {
  /** The canonical session id (`ses_…`). */
  id: string;
  /** The driver provider (`codex`, `claude`, …) or, for an import, its source (`claude-code`, `codex-rollout`). */
  provider: string;
  origin: SessionOrigin;
  createdAt: string;
  /** Time of the last stored event (or of the record's creation). */
  updatedAt: string;
  cwd?: string;
  model?: string;
  /** An ACP agent's command line. */
  agent?: string[];
  /**
   * What the provider needs to resume natively: the native thread/session id once known, and the session's own
   * state dir under `DATA/` (CODEX_HOME, Claude's config dir).
   */
  native?: {
    resumeId?: string;
    stateDir?: string;
    /** The mode and effort the agent (re)starts with (the model is `model`). */
    settings?: { mode?: string; effort?: string };
    /** MCP servers given at creation, given again on a resume. */
    mcpServers?: McpServerSpec[];
  };
  state: SessionState;
  lastSequence: number;
  openRequests: number;
  /** The first user prompt, shortened, for lists. */
  title?: string;
  /** True once `session.exited` is stored: a new turn must resume the agent. */
  exited: boolean;
  /**
   * Import bookkeeping: the file and how much of it is normalized into the store. `closed`: the file had not
   * been written for a while, so the import took it as finished and closed what its end left open (a turn).
   */
  importedFrom?: { path: string; bytes: number; mtimeMs: number; closed?: boolean };
  /** Cluster: the node that runs the session's agent and until when its lease holds (ISO time). */
  owner?: { node: string; leaseUntil: string };
  /** A fork: the session it was forked from. */
  parentId?: string;
  /** Put away by a person: left out of lists unless asked for. */
  archived?: boolean;
  /**
   * A store without a search index of its own (JetStream): the session's prompts, newest last, bounded (see
   * `registry-search.ts`), for `q`. SQLite keeps them in its FTS5 index instead.
   */
  prompts?: string[];
}

/** What `querySessions` finds: newest first (by `createdAt`, then id), a page at a time. */
export interface SessionQuery {
  /** Words a session's title or one of its prompts holds (each word, as a prefix). */
  q?: string;
  provider?: string;
  state?: SessionState;
  /** True: the archived sessions only; false (default): the others only. */
  archived?: boolean;
  limit: number;
  /** The `next` of the page before. */
  cursor?: string;
}

export interface SessionPage {
  sessions: SessionRecord[];
  /** The cursor of the next page; absent on the last one. */
  next?: string;
}

/** What a store says of the engine behind it (the server's health route shows it). */
export interface StoreHealth {
  backend: "sqlite" | "jetstream";
  /** False while the engine is unreachable (a shared log's outage); appends are buffered meanwhile. */
  connected: boolean;
  /** When the current outage began (ISO time), while there is one. */
  downSince?: string;
  /** Events accepted but not yet stored, and their JSON size. */
  buffered?: { events: number; bytes: number };
  /** The last error seen talking to the engine, while it is unreachable. */
  lastError?: string;
}

export type SessionPatch = Partial<Omit<SessionRecord, "id" | "createdAt">>;

/**
 * The durable log behind `serve` and `import`: the session registry, every canonical event and every native
 * record once. Two implementations: SQLite on one machine (`sqlite-store.ts`), JetStream for a cluster.
 *
 * Contract:
 * - `append` resolves once the events are durable; events of a session are appended in sequence order, with
 *   no gap, and an event already stored (same sequence) is not stored twice.
 * - Events come back exactly as appended (the same JSON, `raw` included, key order kept).
 * - `follow` yields the stored events after `after`, then every event appended later, in order, each once,
 *   until `signal` aborts (then it returns).
 */
export interface SessionStore {
  createSession(record: SessionRecord): Promise<void>;
  updateSession(id: string, patch: SessionPatch): Promise<void>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  listSessions(): Promise<SessionRecord[]>;
  /** A page of the registry by filters and words (titles and prompts, through the store's own index). */
  querySessions?(query: SessionQuery): Promise<SessionPage>;
  /**
   * Removes a session for good: its events, its native records, its index entries and its registry record. Its
   * agent must be stopped first (the server does that).
   */
  purgeSession?(id: string): Promise<void>;
  append(sessionId: string, events: readonly RuntimeEvent[]): Promise<void>;
  /** Up to `limit` events with sequence > `after`, in order. */
  readEvents(sessionId: string, after: number, limit: number): Promise<RuntimeEvent[]>;
  follow(sessionId: string, after: number, signal: AbortSignal): AsyncIterable<RuntimeEvent>;
  /**
   * True when writes called in one tick commit together, in call order, in one transaction (SQLite): an append
   * and the registry update after it are then one atomic commit. Absent: each write stands alone.
   */
  readonly commitsOneTickTogether?: boolean;
  /**
   * True when `append` itself moves the registry record's `lastSequence` and `updatedAt` (to the last stored
   * event's sequence and `createdAt`) in the append's commit (SQLite): a writer then updates the record only when
   * something else in it changed.
   */
  readonly appendMovesLastSequence?: boolean;
  /** The engine's state, for stores whose engine can be unreachable (JetStream); absent means always there. */
  health?(): StoreHealth;
  /** Flushes what is batched and releases the store. */
  close(): Promise<void>;
}
