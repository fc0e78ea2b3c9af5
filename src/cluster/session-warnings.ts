import { BoundedMap } from "../kit/bounded-map.js";
import type { LocalSessions } from "../server/local-sessions.js";
import type { ForgedReport, JetStreamStore } from "../store/jetstream-store.js";
import type { ClusterCommand } from "./command-messages.js";
import { appendWarning } from "./session-warning.js";

/** Forged things already reported or warned about (per node), so each is warned about once. */
const REMEMBERED_FORGERIES = 10_000;
/** A session is warned about refused commands at most once per this long (a flood costs one warning). */
const COMMAND_WARNING_EVERY_MS = 5_000;
const SESSION_ID = /^[A-Za-z0-9_-]{1,200}$/;
const decoder = new TextDecoder();

type ForgedCommand = Extract<ClusterCommand, { op: "forged" }>;

export interface SessionWarningsOptions {
  store: JetStreamStore;
  local: LocalSessions;
  node: string;
  warn: (message: string) => void;
  /** Sends a command to the node that runs its session (ClusterSessions' routing). */
  route: (command: ClusterCommand) => Promise<unknown>;
  closed: () => boolean;
}

/**
 * A cluster node's warnings about what it refused (DESIGN.md §10: what fails the cluster secret's check is dropped
 * with a stored warning). Any node may see a forged message; the warning goes into the session's stream through the
 * node that runs it (a `forged` command), which writes it with its agent's events or, when none runs, appends it.
 */
export class SessionWarnings {
  readonly #options: SessionWarningsOptions;
  /** Per session: turns and warnings written here while no agent runs, one at a time (their sequences). */
  readonly #locks = new Map<string, Promise<unknown>>();
  readonly #forgeries = new BoundedMap<string, true>(REMEMBERED_FORGERIES);
  readonly #commandWarnedAt = new BoundedMap<string, number>(REMEMBERED_FORGERIES);

  constructor(options: SessionWarningsOptions) {
    this.#options = options;
  }

  /**
   * The store dropped a forged event message or registry record. An event's session gets a `runtime.warning`
   * from whichever node runs it; a registry record has no authentic record left to say who that is, so the node's
   * log says it.
   */
  reportForged(report: ForgedReport): void {
    const key = `${report.kind}:${report.sessionId}:${report.at}`;
    if (this.#forgeries.has(key)) return;
    this.#forgeries.set(key, true);
    this.#options.warn(
      `dropped a forged ${report.kind === "event" ? "event message" : "registry record"} of session ` +
        `${report.sessionId} (no valid tag made with the cluster secret; at ${report.at})`,
    );
    if (report.kind !== "event" || this.#options.closed()) return;
    this.#send({
      op: "forged",
      sessionId: report.sessionId,
      kind: "event",
      at: report.at,
      node: this.#options.node,
    });
  }

  /** A command refused for its tag: warned about in the session it names, if it names one (at most so often). */
  refusedCommand(data: Uint8Array, reason: string): void {
    this.#options.warn(`refused a command without a valid cluster tag: ${reason}`);
    const text = decoder.decode(data.subarray(0, 64 * 1024));
    const sessionId = /"sessionId"\s*:\s*"([^"]{1,200})"/.exec(text)?.[1];
    if (sessionId === undefined || !SESSION_ID.test(sessionId) || this.#options.closed()) return;
    const now = Date.now();
    if (now - (this.#commandWarnedAt.get(sessionId) ?? 0) < COMMAND_WARNING_EVERY_MS) return;
    this.#commandWarnedAt.set(sessionId, now);
    this.#send({ op: "forged", sessionId, kind: "command", at: now, node: this.#options.node });
  }

  /** On the node that runs the session: the warning a `forged` command asks for, once per forged thing. */
  async storeForged(command: ForgedCommand): Promise<void> {
    const key = `warned:${command.kind}:${command.sessionId}:${command.at}`;
    if (this.#forgeries.has(key)) return;
    this.#forgeries.set(key, true);
    const message =
      command.kind === "event"
        ? "a message on this session's events subject was not written by a node of the cluster (no valid tag " +
          "made with the cluster secret): dropped, never served to a client"
        : "a command for this session without a valid tag made with the cluster secret was refused: nothing ran";
    await this.warnHere(command.sessionId, message, {
      reason: command.kind === "event" ? "forged-event" : "forged-command",
      ...(command.kind === "event" ? { streamSequence: command.at } : {}),
      seenBy: command.node,
    });
  }

  /** A `runtime.warning` in a session this node owns: through its agent if it runs, else appended here. */
  async warnHere(sessionId: string, message: string, detail: Record<string, unknown>): Promise<void> {
    if (this.#options.local.warnSession(sessionId, message, detail)) return;
    await this.locked(sessionId, () => this.warnUnlocked(sessionId, message, detail));
  }

  /** warnHere for a caller that holds the session's lock. */
  async warnUnlocked(sessionId: string, message: string, detail: Record<string, unknown>): Promise<void> {
    if (this.#options.local.warnSession(sessionId, message, detail)) return;
    await appendWarning(this.#options.store, sessionId, message, detail);
  }

  /** Runs `work` after what is under way for the session here (a turn's start, a warning's append). */
  locked<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const run = (this.#locks.get(sessionId) ?? Promise.resolve()).then(work);
    const chain = run.catch(() => undefined);
    this.#locks.set(sessionId, chain);
    void chain.then(() => {
      if (this.#locks.get(sessionId) === chain) this.#locks.delete(sessionId);
    });
    return run;
  }

  #send(command: ForgedCommand): void {
    void this.#options.route(command).catch(() => undefined);
  }
}
