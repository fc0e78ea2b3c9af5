import { randomUUID } from "node:crypto";
import type { DriverOptions, ForkSource } from "../contracts/driver.js";
import type { RuntimeEvent } from "../contracts/events.js";
import type { BaseMapper } from "../kit/base-mapper.js";
import { raw } from "../kit/event-builder.js";
import {
  jsonWithoutRecursion,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  RAW_PREVIEW_CHARS,
} from "../kit/json-depth.js";
import type { TerminationReason } from "../kit/lifecycle-tracker.js";
import { type TranscriptDirection, type TranscriptEntry, transcriptLine } from "../kit/transcript.js";
import { wallClockIso } from "../kit/wall-clock.js";
import { type AgentPackage, untestedAgentVersions } from "./agent-programs.js";
import type { AwaitedCalls } from "./awaited-calls.js";
import { EventChannel } from "./event-channel.js";

type ForkedFrom = { sessionId: string; turnId?: string };

/** The canonical session id a driver uses: the host's, or a fresh one. */
export function sessionIdFor(options: Pick<DriverOptions, "sessionId">): string {
  return options.sessionId ?? `ses_${randomUUID()}`;
}

/**
 * The part every driver shares: each native record is stamped, recorded as a transcript line, mapped, and
 * queued for the host. Replaying the recorded transcript gives the same events, ids and times.
 */
export class DriverSession {
  readonly channel: EventChannel;
  readonly #clock: () => string;
  readonly #record: ((line: string) => void) | undefined;
  readonly #calls: AwaitedCalls | undefined;
  #turnRequested = false;
  #turnOpen = false;
  readonly #turnEndListeners: (() => void)[] = [];
  #forkedFrom: ForkedFrom | undefined;
  readonly #observe: ((event: RuntimeEvent) => void) | undefined;

  constructor(
    readonly mapper: BaseMapper,
    options: {
      record?: ((line: string) => void) | undefined;
      clock?: (() => string) | undefined;
      highWaterMark?: number;
      /** JSON-RPC drivers: replies to our requests pass back-pressure (see AwaitedCalls). */
      awaitedCalls?: AwaitedCalls | undefined;
      /** A fork: what its first `session.started` says it was forked from. */
      forkOf?: ForkSource | undefined;
      /** Sees every event as it leaves for the host (a driver's own bookkeeping, e.g. turn anchors). */
      observe?: ((event: RuntimeEvent) => void) | undefined;
    },
  ) {
    this.channel = new EventChannel(options.highWaterMark);
    this.#calls = options.awaitedCalls;
    this.#clock = options.clock ?? wallClockIso;
    this.#record = options.record;
    this.#observe = options.observe;
    const fork = options.forkOf;
    if (fork !== undefined)
      this.#forkedFrom = {
        sessionId: fork.sessionId,
        ...(fork.turnId === undefined ? {} : { turnId: fork.turnId }),
      };
  }

  get sessionId(): string {
    return this.mapper.sessionId;
  }

  get ended(): boolean {
    return this.channel.closed;
  }

  /**
   * One native record from (`in`) or to (`out`) the provider. Returns false when the host is behind and the
   * source should pause; never while a reply to one of our requests is awaited, and sending such a request
   * releases a pause in force (after this record's events are queued, so the sequence stays in order).
   */
  ingest(dir: TranscriptDirection, msg: unknown): boolean {
    if (this.channel.closed) return false;
    const t = this.#clock();
    this.#record?.(transcriptLine(dir, msg, t));
    const calls = this.#calls;
    const answers = dir === "in" && calls !== undefined && calls.answers(msg);
    // A record nesting past what a serializer can write is a warning with its start, as on replay (json-depth.ts).
    const entry: TranscriptEntry = nestsDeeperThan(msg, MAX_JSON_DEPTH)
      ? {
          kind: "malformed",
          code: "too-deep",
          reason: `a record nesting deeper than ${MAX_JSON_DEPTH} levels`,
          text: jsonWithoutRecursion(msg, RAW_PREVIEW_CHARS) ?? "",
          t,
        }
      : { kind: "message", dir, msg, t };
    const keepReading = this.#push(this.mapper.map(entry));
    if (calls === undefined) return keepReading;
    if (dir === "out" && calls.sent(msg)) queueMicrotask(() => this.channel.releaseDrainListeners());
    return keepReading || answers || calls.anyPending;
  }

  /** A request given up on (timed out): back-pressure applies again. */
  abandonCall(id: string | number): void {
    this.#calls?.abandon(id);
  }

  /** A line from the provider that is not JSON: recorded as-is, surfaced as a `runtime.warning`. */
  ingestGarbage(text: string): boolean {
    if (this.channel.closed) return false;
    const t = this.#clock();
    this.#record?.(transcriptLine("in", text, t));
    return this.#push(
      this.mapper.map({ kind: "malformed", text, reason: "provider wrote a line that is not JSON", t }),
    );
  }

  /** An event of the driver's own making (e.g. a transport error), in sequence with the rest. */
  emitOwn(make: Parameters<BaseMapper["emitOwn"]>[0]): RuntimeEvent | undefined {
    if (this.channel.closed) return undefined;
    const events = this.mapper.emitOwn(make, this.#clock());
    this.#push(events);
    return events[0];
  }

  /** A `runtime.warning` the host asked for (RuntimeDriver.warn). */
  warn(message: string, detail?: Record<string, unknown>): void {
    this.emitOwn((builder) =>
      builder.emit(
        "runtime.warning",
        { message, ...(detail === undefined ? {} : { detail }) },
        {
          raw: raw("runtime.driver", {
            hostWarning: { message, ...(detail === undefined ? {} : { detail }) },
          }),
        },
      ),
    );
  }

  /** The host named the thread (RuntimeDriver.rename) where the agent has no name of its own to report. */
  renamed(title: string): void {
    this.emitOwn((builder) =>
      builder.emit(
        "thread.metadata.updated",
        { name: title },
        { raw: raw("runtime.driver", { rename: { title } }) },
      ),
    );
  }

  /**
   * One `runtime.warning` per agent package installed at a version this project is not tested with: the driver
   * goes on (a newer program usually works, and unknown native kinds surface as warnings of their own).
   */
  warnUntestedVersions(packages: readonly AgentPackage[], base?: string): void {
    for (const untested of untestedAgentVersions(packages, base)) {
      this.emitOwn((builder) =>
        builder.emit(
          "runtime.warning",
          {
            message:
              `${untested.name} ${untested.installed} is installed; provider-runtime is tested with ` +
              `${untested.tested} (npm i ${untested.name}@${untested.tested})`,
            detail: { reason: "untested-version", ...untested },
          },
          { raw: raw("runtime.driver", { untestedVersion: untested }) },
        ),
      );
    }
  }

  /** Closes whatever is open, emits `session.exited`, and ends the event stream. Idempotent. */
  terminate(reason: TerminationReason): void {
    if (this.channel.closed) return;
    this.#push(this.mapper.terminate(reason, this.#clock()));
    this.channel.close();
    this.#turnEnded();
  }

  /** A turn has been asked for or is running (from the host's send until its `turn.completed` / `turn.aborted`). */
  get turnRunning(): boolean {
    return this.#turnRequested || this.#turnOpen;
  }

  /** The driver is about to start a turn: `turnRunning` from now on, before the agent says so. */
  turnRequested(requested = true): void {
    this.#turnRequested = requested;
    if (!requested && !this.#turnOpen) this.#turnEnded();
  }

  /** Calls `listener` once the running turn has ended (at once when none runs). */
  onTurnEnd(listener: () => void): void {
    if (!this.turnRunning || this.channel.closed) {
      listener();
      return;
    }
    this.#turnEndListeners.push(listener);
  }

  /** Queues events for the host, following the turn; a fork's first `session.started` gets its `forkedFrom`. */
  #push(events: readonly RuntimeEvent[]): boolean {
    for (const event of events) {
      if (event.type === "session.started" && this.#forkedFrom !== undefined) {
        event.payload = { ...event.payload, forkedFrom: this.#forkedFrom };
        this.#forkedFrom = undefined;
      }
      this.#observe?.(event);
      if (event.type === "turn.started") {
        this.#turnOpen = true;
        this.#turnRequested = false;
      } else if (event.type === "turn.completed" || event.type === "turn.aborted") {
        this.#turnOpen = false;
        this.#turnRequested = false;
      }
    }
    const keepReading = this.channel.pushAll(events);
    if (!this.turnRunning) this.#turnEnded();
    return keepReading;
  }

  #turnEnded(): void {
    const listeners = this.#turnEndListeners.splice(0);
    for (const listener of listeners) listener();
  }
}
