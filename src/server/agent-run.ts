import type { RuntimeDriver } from "../contracts/driver.js";
import type { RuntimeEvent } from "../contracts/events.js";
import { BoundedMap } from "../kit/bounded-map.js";
import { wallClockIso } from "../kit/wall-clock.js";
import type { SessionRecord, SessionStore } from "../store/types.js";
import { EventWriter } from "./event-writer.js";
import { closeStoredStream } from "./restore.js";
import { SessionCommandError } from "./session-commands.js";
import { SessionSummary } from "./session-summary.js";

/** Events the store may fall behind by before the run stops reading the agent (which then pauses it). */
const MAX_BACKLOG = 1_000;

export interface AgentRunOptions {
  store: SessionStore;
  record: SessionRecord;
  driver: RuntimeDriver;
  /** A store failure: the run stops the agent, and says why here. */
  warn: (message: string) => void;
}

/**
 * One driver of a session, its events written to the store (every one before any client can read it) and the
 * registry summary updated with each write. What a command must know at once — a turn running, which requests
 * are open — is taken from the events as they leave the driver, ahead of the store.
 */
export class AgentRun {
  readonly driver: RuntimeDriver;
  /** Settles once the driver's stream has ended and all of it is stored. */
  readonly done: Promise<void>;
  readonly #store: SessionStore;
  readonly #summary: SessionSummary;
  #native: SessionRecord["native"];
  readonly #sessionId: string;
  readonly #writer: EventWriter;
  readonly #warn: (message: string) => void;
  readonly #open = new BoundedMap<string, true>(10_000);
  readonly #resolved = new BoundedMap<string, true>(10_000);
  /** Why the driver's `start()` failed, if it did (the stream says so too). */
  startError: string | undefined;
  /** Set with `startError` when the start failed because the agent cannot do what was asked (an ACP fork). */
  startUnsupported = false;
  #turnBusy = false;
  /** Turns the driver holds to start after the running one (delivery `queue`). */
  #queued = 0;
  #exited = false;
  /** `stop` was called: a store that cannot write is not waited for any longer. */
  #stopping = false;

  constructor(options: AgentRunOptions) {
    this.driver = options.driver;
    this.#store = options.store;
    this.#warn = options.warn;
    this.#summary = new SessionSummary(options.record);
    this.#native = options.record.native;
    this.#sessionId = options.record.id;
    this.#writer = new EventWriter(
      (events) => this.#write(options.record.id, events),
      // the agent is stopped at once: what it would do next could not be stored
      () => void this.driver.stop().catch(() => undefined),
    );
    this.done = this.#pump();
  }

  /** The agent has exited (seen leaving the driver; maybe not stored yet). */
  get exited(): boolean {
    return this.#exited;
  }

  isOpenRequest(requestId: string): boolean {
    return this.#open.has(requestId);
  }

  wasResolved(requestId: string): boolean {
    return this.#resolved.has(requestId);
  }

  /** Claims the session for a turn; refused while one runs. `endTurn` gives the claim back (the turn failed). */
  beginTurn(): void {
    if (this.#turnBusy) throw new SessionCommandError("conflict", "a turn is already running");
    if (this.#exited) throw new SessionCommandError("conflict", "the agent has exited");
    this.#turnBusy = true;
  }

  endTurn(): void {
    this.#turnBusy = false;
  }

  /** A turn runs here (claimed, or queued behind one): `queue` and `steer` go to the driver then. */
  get turnBusy(): boolean {
    return this.#turnBusy;
  }

  /** A turn the driver queued: the session stays busy through the hand-over to it. */
  queueTurn(): void {
    this.#queued += 1;
  }

  /** A queued turn the driver did not take after all. */
  unqueueTurn(): void {
    this.#queued = Math.max(0, this.#queued - 1);
  }

  /** Settles once what the driver has emitted so far is stored (after a turn of the event loop to read it). */
  async settled(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    await this.#writer.idle().catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    await this.driver.stop().catch((error: unknown) => this.#warn(`stopping the agent: ${messageOf(error)}`));
    await this.done;
  }

  async #pump(): Promise<void> {
    try {
      for await (const event of this.driver.events) {
        this.#observe(event);
        this.#writer.push(event);
        if (this.#writer.backlog >= MAX_BACKLOG) await this.#writer.idle();
      }
      await this.#writer.idle();
    } catch (error) {
      this.#warn(`session ${this.#sessionId}: storing its events failed: ${messageOf(error)}`);
      await this.driver.stop().catch(() => undefined);
      await this.#closeOnceWritable(error);
    } finally {
      this.#exited = true;
      this.#turnBusy = false;
      this.#queued = 0;
    }
  }

  /**
   * After a failed write (a full disk) the stored stream is open and its clients wait: it is closed (runtime.error
   * `transport_error`, what was open ended, `session.exited`) as soon as the store can write again, tried every
   * second or two until then. A server stopped meanwhile leaves it to its next start's restore.
   */
  async #closeOnceWritable(error: unknown): Promise<void> {
    const message = `the store could not write (${messageOf(error)}): the agent was stopped`;
    for (let delay = 250; !this.#stopping; delay = Math.min(delay * 2, 2_000)) {
      try {
        const record = await this.#store.getSession(this.#sessionId);
        if (record !== undefined) await closeStoredStream(this.#store, record, message, wallClockIso());
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  #observe(event: RuntimeEvent): void {
    switch (event.type) {
      // Only a turn claimed here makes the session busy: a turn.started this server did not ask for (an agent
      // replaying history after a resume) must not turn a host's next prompt into a 409.
      case "turn.completed":
      case "turn.aborted":
        // the driver starts the next queued turn now
        this.#turnBusy = this.#queued > 0;
        this.#queued = Math.max(0, this.#queued - 1);
        break;
      case "request.opened":
        this.#open.set(event.requestId, true);
        break;
      case "request.resolved":
        this.#open.release(event.requestId);
        this.#resolved.set(event.requestId, true);
        break;
      case "session.exited":
        this.#exited = true;
        this.#turnBusy = false;
        this.#queued = 0;
        break;
      default:
        break;
    }
  }

  /**
   * A store that commits one tick's writes together (SQLite) gets the events and the summary they lead to in the
   * same tick: one commit (and fsync) per batch, not two, and whoever sees the events sees their summary. The
   * patch is then taken before the append is known to succeed; an append refused (a sequence gap: a bug) fails
   * the writer and the run stops the agent. Any other store (JetStream: stream and registry apart) is updated only
   * after the append, so the registry never claims events a crash kept from being stored.
   */
  async #write(sessionId: string, events: RuntimeEvent[]): Promise<void> {
    const together = this.#store.commitsOneTickTogether === true;
    if (!together) await this.#store.append(sessionId, events);
    for (const event of events) this.#summary.observe(event);
    // most batches are deltas, which move only what such a store's append moves itself
    if (together && this.#store.appendMovesLastSequence === true && !this.#summary.changed)
      return this.#store.append(sessionId, events);
    const patch = this.#summary.patch(this.#native);
    if (patch.native !== undefined) this.#native = patch.native;
    if (!together) return this.#store.updateSession(sessionId, patch);
    const appended = this.#store.append(sessionId, events);
    const updated = this.#store.updateSession(sessionId, patch);
    const [append, update] = await Promise.allSettled([appended, updated]);
    if (append.status === "rejected") throw append.reason;
    if (update.status === "rejected") throw update.reason;
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
