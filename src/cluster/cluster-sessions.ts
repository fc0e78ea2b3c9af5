import type { Msg, Subscription } from "@nats-io/transport-node";
import { sessionSettingsOf, turnInputOf } from "../api/control-schemas.js";
import type { CreateSessionBody, RespondBody } from "../api/schemas.js";
import type { ForkBody, SessionAdminPatch } from "../api/session-admin-schemas.js";
import type { RequestResponse, SessionSettings, TurnInput } from "../contracts/driver.js";
import type { LocalSessions } from "../server/local-sessions.js";
import { closeAbandonedSessions } from "../server/restore.js";
import { SessionCommandError, type SessionCommands } from "../server/session-commands.js";
import type { SessionPaths } from "../server/session-paths.js";
import type { ForgedReport, JetStreamStore } from "../store/jetstream-store.js";
import type { SessionPatch, SessionRecord } from "../store/types.js";
import { ClusterCommand, ClusterReply, commandSubject } from "./command-messages.js";
import type { CommandSeal } from "./command-seal.js";
import type { NativeStateStore } from "./native-state-store.js";
import { oneSessionView } from "./owner-stamping-store.js";
import { isDefaultWorkDir, refusalOf } from "./runnable-check.js";
import { SessionWarnings } from "./session-warnings.js";

export interface ClusterSessionsOptions {
  store: JetStreamStore;
  /** Runs the agents of the sessions this node owns; its store must stamp new sessions (OwnerStampingStore). */
  local: LocalSessions;
  /** This node's id: unique in the cluster, a NATS token. */
  node: string;
  /** How long a lease lasts; renewed every third of it. */
  leaseMs: number;
  /** How long a command forwarded to another node may take (a turn on an exited session resumes its agent). */
  commandTimeoutMs?: number;
  /** Seals the commands sent and opens the ones received (the cluster secret). */
  seal: CommandSeal;
  /** This node's DATA and `--root`: where a session taken over keeps its state, what it may run. */
  paths: SessionPaths;
  /** Where native state is saved at turn ends and restored from at a takeover. */
  nativeState?: NativeStateStore;
  warn?: (message: string) => void;
}

type ClusterTurnBody = Extract<ClusterCommand, { op: "turn" }>["input"];
type ClusterSettings = Extract<ClusterCommand, { op: "configure" }>["settings"];

const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;
/** Rounds of look up the owner → forward or take over; each waits at most one lease. */
const ROUTE_ATTEMPTS = 6;

/**
 * The commands of a cluster node (DESIGN.md §10). A session belongs to the node that holds its lease in the
 * registry; a command for it is run here if this node owns it, else sent to the owner by NATS request/reply.
 * An owner that does not answer (no one listens on its subject: the process is gone) keeps its sessions until
 * its lease ends; then the first node with a command for one of them claims it (compare-and-set on the record),
 * closes what the dead node left open, as the server's restore does, and runs the command, which resumes the
 * agent natively (its native state is under the shared `--data`).
 */
export class ClusterSessions implements SessionCommands {
  readonly node: string;
  readonly #store: JetStreamStore;
  readonly #local: LocalSessions;
  readonly #leaseMs: number;
  readonly #timeoutMs: number;
  readonly #warn: (message: string) => void;
  /** Sessions this node runs and renews the lease of. */
  readonly #owned = new Set<string>();
  /** Commands under way per session: an owned session is not given up while one runs. */
  readonly #busy = new Map<string, number>();
  /** Owned sessions seen exited at the last renewal: given up at the next, if still exited and idle. */
  readonly #exitedLastRound = new Set<string>();
  readonly #seal: CommandSeal;
  readonly #paths: SessionPaths;
  readonly #nativeState: NativeStateStore | undefined;
  /** Per session: turns and warnings written here while no agent runs, one at a time (their sequences). */
  readonly #warnings: SessionWarnings;
  readonly #subscription: Subscription;
  readonly #renewTimer: NodeJS.Timeout;
  readonly #unwatch: () => void;
  #closed = false;

  constructor(options: ClusterSessionsOptions) {
    this.node = options.node;
    this.#store = options.store;
    this.#local = options.local;
    this.#leaseMs = options.leaseMs;
    this.#timeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    this.#warn = options.warn ?? (() => undefined);
    this.#seal = options.seal;
    this.#paths = options.paths;
    this.#nativeState = options.nativeState;
    this.#warnings = new SessionWarnings({
      store: this.#store,
      local: this.#local,
      node: this.node,
      warn: this.#warn,
      route: (command) => this.#route(command),
      closed: () => this.#closed,
    });
    const nc = this.#store.link.nc;
    const subject = commandSubject(this.#store.subjectPrefix, this.node);
    this.#subscription = nc.subscribe(subject, {
      callback: (_error, msg) => void this.#answer(subject, msg),
    });
    this.#renewTimer = setInterval(() => void this.#renew(), Math.max(100, Math.floor(this.#leaseMs / 3)));
    this.#renewTimer.unref();
    this.#unwatch = this.#store.onHealthChange((connected) => {
      if (connected) {
        void this.#renew();
        return;
      }
      const health = this.#store.health();
      this.#local.warnRunning(
        `NATS is unreachable (${health.lastError ?? "no connection"}): this session's events are kept on node ` +
          `${this.node} and published when NATS is back; other nodes cannot show them until then`,
        { reason: "store-unreachable", node: this.node, since: health.downSince },
      );
    });
  }

  /** A lease from now. */
  leaseUntil(): string {
    return new Date(Date.now() + this.#leaseMs).toISOString();
  }

  /** Stamps a new session with this node as its owner (OwnerStampingStore's `stamp`). */
  stamp = (record: SessionRecord): SessionRecord => {
    this.#owned.add(record.id);
    return { ...record, owner: { node: this.node, leaseUntil: this.leaseUntil() } };
  };

  /** The store dropped a forged event message or registry record (JetStreamStoreOptions.onForged). */
  reportForged = (report: ForgedReport): void => this.#warnings.reportForged(report);

  /** Saves a session's native state (at a turn end, when its agent exits). */
  saveNativeState(sessionId: string): void {
    if (this.#nativeState === undefined || !this.#owned.has(sessionId)) return;
    void this.#nativeState.save(sessionId, this.#paths.stateDir(sessionId));
  }

  async create(body: CreateSessionBody): Promise<SessionRecord> {
    if (!this.#store.health().connected)
      throw new SessionCommandError("unavailable", "NATS is unreachable: no new session until it is back");
    return this.#local.create(body);
  }

  async turn(sessionId: string, input: TurnInput): Promise<void> {
    await this.#route({ op: "turn", sessionId, input: input as ClusterTurnBody });
  }

  async configure(sessionId: string, settings: SessionSettings): Promise<SessionRecord> {
    const record = await this.#route({ op: "configure", sessionId, settings: settings as ClusterSettings });
    return record ?? (await this.#record(sessionId));
  }

  async respond(sessionId: string, requestId: string, response: RequestResponse): Promise<void> {
    await this.#route({ op: "respond", sessionId, requestId, response: response as RespondBody });
  }

  async interrupt(sessionId: string): Promise<void> {
    await this.#route({ op: "interrupt", sessionId });
  }

  async stop(sessionId: string): Promise<SessionRecord> {
    const record = await this.#route({ op: "stop", sessionId });
    return record ?? (await this.#record(sessionId));
  }

  /** Forked by the parent's node (where its native state is); the fork is that node's session. */
  async fork(sessionId: string, body: ForkBody): Promise<SessionRecord> {
    const record = await this.#route({ op: "fork", sessionId, body });
    if (record === undefined) throw new SessionCommandError("unavailable", "the fork was not made");
    return record;
  }

  async updateAdmin(sessionId: string, patch: SessionAdminPatch): Promise<SessionRecord> {
    return (await this.#route({ op: "update", sessionId, patch })) ?? (await this.#record(sessionId));
  }

  async purge(sessionId: string): Promise<void> {
    await this.#route({ op: "purge", sessionId });
  }

  /** Stops this node's agents (each `session.exited` stored) and gives their leases up, so others take over. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#renewTimer);
    this.#unwatch();
    this.#subscription.unsubscribe();
    await this.#local.close();
    await this.#nativeState?.settle();
    const now = new Date().toISOString();
    await Promise.all(
      [...this.#owned].map((id) => this.#store.releaseSession(id, this.node, now).catch(() => undefined)),
    );
    this.#owned.clear();
  }

  async #route(command: ClusterCommand): Promise<SessionRecord | undefined> {
    for (let attempt = 0; attempt < ROUTE_ATTEMPTS; attempt++) {
      if (this.#closed) throw new SessionCommandError("unavailable", "the server is shutting down");
      const record = await this.#record(command.sessionId);
      const owner = record.owner;
      if (owner === undefined || owner.node === this.node) {
        const done = await this.#executeUnlessMoved(command, record);
        if (done !== MOVED) return done;
        continue;
      }
      const answer = await this.#forward(owner.node, command);
      if (answer === "timeout") continue;
      if (answer !== "absent") {
        if (answer.ok) return answer.record as SessionRecord | undefined;
        if (answer.kind === "moved") continue;
        throw new SessionCommandError(answer.kind, answer.message, answer.field);
      }
      // Nobody runs the owner's subject: it is gone or cut off; its lease decides when the session is free.
      const wait = Date.parse(owner.leaseUntil) - Date.now();
      if (wait > 0) {
        await delay(Math.min(wait, this.#leaseMs) + 20);
        continue;
      }
      const claimed = await this.#store.claimSession(record.id, this.node, this.leaseUntil(), nowIso());
      if (claimed === undefined) continue;
      const done = await this.#executeUnlessMoved(command, claimed);
      if (done !== MOVED) return done;
    }
    throw new SessionCommandError(
      "unavailable",
      `the node running session ${command.sessionId} does not answer`,
    );
  }

  async #executeUnlessMoved(
    command: ClusterCommand,
    record: SessionRecord,
  ): Promise<SessionRecord | undefined | typeof MOVED> {
    try {
      return await this.#execute(command, record);
    } catch (error) {
      if (error instanceof Moved) return MOVED;
      throw error;
    }
  }

  /** Runs a command here; first takes the session over if this node does not run it yet. */
  async #execute(command: ClusterCommand, record: SessionRecord): Promise<SessionRecord | undefined> {
    this.#busy.set(record.id, (this.#busy.get(record.id) ?? 0) + 1);
    try {
      if (!this.#owned.has(record.id)) {
        const claimed = await this.#store.claimSession(record.id, this.node, this.leaseUntil(), nowIso());
        if (claimed === undefined) throw new Moved(record.id);
        this.#owned.add(record.id);
        const closed = await closeAbandonedSessions(oneSessionView(this.#store, claimed));
        if (closed.length > 0)
          this.#warn(`took over session ${record.id}: closed what its last node left open`);
        await this.#adopt(claimed);
      }
      switch (command.op) {
        case "turn":
          await this.#warnings.locked(record.id, async () => {
            await this.#checkRunnable(command.sessionId);
            await this.#local.turn(command.sessionId, turnInputOf(command.input));
          });
          return undefined;
        case "forged":
          await this.#warnings.storeForged(command);
          return undefined;
        case "configure":
          return await this.#local.configure(command.sessionId, sessionSettingsOf(command.settings));
        case "respond":
          await this.#local.respond(
            command.sessionId,
            command.requestId,
            command.response as RequestResponse,
          );
          return undefined;
        case "interrupt":
          await this.#local.interrupt(command.sessionId);
          return undefined;
        case "stop":
          return await this.#local.stop(command.sessionId);
        case "fork":
          return await this.#local.fork(command.sessionId, command.body);
        case "update":
          return await this.#local.updateAdmin(command.sessionId, command.patch);
        case "purge":
          await this.#local.purge(command.sessionId);
          this.#owned.delete(command.sessionId);
          // a save under way would put the state back after its removal
          await this.#nativeState?.settle();
          await this.#nativeState?.remove(command.sessionId);
          return undefined;
      }
    } finally {
      const left = (this.#busy.get(record.id) ?? 1) - 1;
      if (left === 0) this.#busy.delete(record.id);
      else this.#busy.set(record.id, left);
    }
  }

  /**
   * A session this node just took over: its native state restored from the object store into this node's DATA,
   * and the record pointed at this node's state dir (and default cwd, if it had the last node's).
   */
  async #adopt(record: SessionRecord): Promise<void> {
    const stateDir = this.#paths.stateDir(record.id);
    if (this.#nativeState !== undefined) {
      try {
        const files = await this.#nativeState.restore(record.id, stateDir);
        if (files !== undefined)
          this.#warn(`took over session ${record.id}: restored ${files} native state file(s)`);
      } catch (error) {
        this.#warn(`took over session ${record.id}: ${messageOf(error)}`);
        await this.#warnings.warnHere(record.id, `the native state was not restored: ${messageOf(error)}`, {
          reason: "native-state-refused",
        });
      }
    }
    const patch: SessionPatch = {};
    if (record.native?.stateDir !== stateDir) patch.native = { ...record.native, stateDir };
    if (isDefaultWorkDir(record)) {
      const cwd = await this.#paths.cwdFor(record.id, undefined);
      if (cwd !== record.cwd) patch.cwd = cwd;
    }
    if (Object.keys(patch).length > 0) await this.#store.updateSession(record.id, patch);
  }

  /** Before an agent may start: the record checked against this node's own rules (its `--root` above all). */
  async #checkRunnable(sessionId: string): Promise<void> {
    const record = await this.#record(sessionId);
    const refusal = await refusalOf(record, this.#paths);
    if (refusal === undefined) return;
    this.#warn(`session ${sessionId}: refused to run its agent: ${refusal}`);
    await this.#warnings.warnUnlocked(sessionId, `node ${this.node} refused to run the agent: ${refusal}`, {
      reason: "refused-by-node",
      node: this.node,
    });
    throw new SessionCommandError("forbidden", `node ${this.node} refuses to run this session: ${refusal}`);
  }

  /** Sends a command to its owner: the owner's reply, or why there is none. */
  async #forward(node: string, command: ClusterCommand): Promise<ClusterReply | "absent" | "timeout"> {
    let msg: Msg;
    const subject = commandSubject(this.#store.subjectPrefix, node);
    const sealed = this.#seal.seal(subject, command);
    try {
      msg = await this.#store.link.nc.request(subject, sealed.data, { timeout: this.#timeoutMs });
    } catch (error) {
      if ((error as { isNoResponders?: () => boolean }).isNoResponders?.()) return "absent";
      if ((error as { name?: string }).name === "TimeoutError") return "timeout";
      throw new SessionCommandError("unavailable", `node ${node} could not be reached: ${messageOf(error)}`);
    }
    const reply = ClusterReply.safeParse(this.#seal.openReply(sealed.nonce, msg.data));
    if (!reply.success)
      throw new SessionCommandError(
        "unavailable",
        `node ${node} answered something else (or without a valid tag)`,
      );
    return reply.data;
  }

  /** A command from another node: run here if this node (still) owns the session. */
  async #answer(subject: string, msg: Msg): Promise<void> {
    const opened = this.#seal.open(subject, msg.data);
    const respond = (reply: ClusterReply) => {
      try {
        msg.respond(this.#seal.sealReply(opened.ok ? opened.nonce : "", reply));
      } catch {
        // the connection is closing: the sender times out and looks again
      }
    };
    if (!opened.ok) {
      respond({ ok: false, kind: "forbidden", message: `refused: ${opened.reason}` });
      this.#warnings.refusedCommand(msg.data, opened.reason);
      return;
    }
    const command = ClusterCommand.safeParse(opened.body);
    if (!command.success) {
      respond({
        ok: false,
        kind: "invalid",
        message: `not a cluster command: ${command.error.issues[0]?.message}`,
      });
      return;
    }
    try {
      if (this.#closed) throw new Moved(command.data.sessionId);
      const record = await this.#record(command.data.sessionId);
      if (record.owner !== undefined && record.owner.node !== this.node) throw new Moved(record.id);
      const result = await this.#execute(command.data, record);
      respond(
        result === undefined
          ? { ok: true }
          : { ok: true, record: result as unknown as Record<string, unknown> },
      );
    } catch (error) {
      if (error instanceof Moved) respond({ ok: false, kind: "moved", message: error.message });
      else if (error instanceof SessionCommandError)
        respond({
          ok: false,
          kind: error.kind,
          message: error.message,
          ...(error.field === undefined ? {} : { field: error.field }),
        });
      else respond({ ok: false, kind: "unavailable", message: messageOf(error) });
    }
  }

  /**
   * Keeps this node's leases; a session another node has claimed meanwhile (this node was cut off longer than a
   * lease) is given up and its agent stopped. A session that stayed exited and idle for a whole round is given up
   * too, so the set stays as large as what runs here: its next turn resumes it on whichever node gets it.
   */
  async #renew(): Promise<void> {
    if (this.#closed || !this.#store.health().connected) return;
    for (const id of [...this.#owned]) {
      try {
        const claimed = await this.#store.claimSession(id, this.node, this.leaseUntil(), nowIso());
        if (claimed === undefined) {
          this.#owned.delete(id);
          this.#warn(`session ${id} was taken over by another node: stopping its agent here`);
          await this.#local.stop(id).catch(() => undefined);
          continue;
        }
        const idle = claimed.exited && !this.#busy.has(id);
        if (idle && this.#exitedLastRound.has(id)) {
          this.#owned.delete(id);
          this.#exitedLastRound.delete(id);
          await this.#store.releaseSession(id, this.node, nowIso());
        } else if (idle) this.#exitedLastRound.add(id);
        else this.#exitedLastRound.delete(id);
      } catch (error) {
        this.#warn(`renewing the lease of session ${id}: ${messageOf(error)}`);
      }
    }
  }

  async #record(sessionId: string): Promise<SessionRecord> {
    const record = await this.#store.getSession(sessionId);
    if (record === undefined) throw new SessionCommandError("not_found", `no session ${sessionId}`);
    return record;
  }
}

class Moved extends Error {
  constructor(sessionId: string) {
    super(`session ${sessionId} is run by another node`);
    this.name = "Moved";
  }
}

/** What #executeUnlessMoved answers when another node claimed the session first. */
const MOVED: unique symbol = Symbol("moved");

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const nowIso = () => new Date().toISOString();
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
