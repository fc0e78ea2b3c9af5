import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { BaseMapper, type MessageEntry } from "../../kit/base-mapper.js";
import { raw } from "../../kit/event-builder.js";
import { isObject, own, str } from "../../kit/guards.js";
import { idScopeOf, mintId } from "../../kit/ids.js";
import { fixedClock, type MapperOptions } from "../../kit/mapper.js";
import { malformedRecordWarning, unknownKindWarning } from "../../kit/warnings.js";
import { type ClaudeContext, emit } from "./context.js";
import { CLAUDE_IN_KINDS, CLAUDE_OUT_KINDS, kindOf } from "./message-table.js";
import { PERMISSION_DECISION, PERMISSION_REQUEST } from "./records.js";
import { closeUnfinishedRun } from "./run-boundary.js";
import { ClaudeState } from "./state.js";
import { openSessionAndThread } from "./system-messages.js";
import { mapResult } from "./turns.js";

/** How many untimed records at the head of a run wait for a time (past it they take the last time seen). */
const MAX_UNTIMED_HEAD = 1_000;

/**
 * The `claude-sdk` mapper: Claude Agent SDK messages and the driver's permission records → canonical events.
 * Events take the transcript line's time; a bare record (the output of `claude -p --output-format stream-json`)
 * has none, so it takes its own `timestamp` (assistant and user messages carry one), else the last time seen. The
 * records at the head of a run (its `system:init`, which carries no time) wait for the run's first timed record
 * rather than take the previous run's time, or 1970's at the head of the log (unless a clock was injected: a host
 * mapping live records gives its clock, and nothing waits).
 */
export class ClaudeSdkMapper extends BaseMapper {
  readonly state: ClaudeState;
  readonly #times: { last: string | undefined };
  /** Untimed records at the head of a run, mapped once a record with a time comes (or at the end). */
  #untimedHead: MessageEntry[] = [];
  /** Set while untimed records wait; never with an injected clock (a live host's clock tells the time). */
  #holding: boolean;
  readonly #waitsForTime: boolean;
  /** The time of the last record mapped: what a run left unfinished ends at, not at the next run's start. */
  #lastMappedTime: string | undefined;

  constructor(options: MapperOptions) {
    const times = { last: undefined as string | undefined };
    const fallback = options.clock ?? fixedClock;
    super("claude-sdk", "claude", { ...options, clock: () => times.last ?? fallback() });
    this.#times = times;
    this.#waitsForTime = options.clock === undefined;
    this.#holding = this.#waitsForTime;
    this.state = new ClaudeState(idScopeOf(options), this.cap);
  }

  protected rawOf(entry: MessageEntry): RuntimeEventRaw {
    const msg = entry.msg;
    if (!isObject(msg)) return raw("claude.sdk.message", msg);
    const type = str(msg.type);
    const source =
      type === PERMISSION_REQUEST || type === PERMISSION_DECISION
        ? "claude.sdk.permission"
        : "claude.sdk.message";
    return raw(source, msg, undefined, kindOf(msg));
  }

  protected mapMessage(entry: MessageEntry): RuntimeEvent[] {
    if (entry.t !== undefined) {
      this.#times.last = entry.t;
      return this.#mapRecord(entry);
    }
    const time = isObject(entry.msg) ? recordTime(entry.msg) : undefined;
    if (time === undefined) {
      if (this.#waitsForTime && isObject(entry.msg) && isRunStart(entry.msg, entry.dir)) this.#holding = true;
      if (this.#holding && this.#untimedHead.length < MAX_UNTIMED_HEAD) {
        this.#untimedHead.push(entry);
        return [];
      }
    }
    this.#holding = false;
    if (time !== undefined) this.#times.last = time;
    this.builder.at(this.#times.last);
    if (this.#untimedHead.length === 0) return this.#mapRecord(entry);
    const held = this.#untimedHead;
    this.#untimedHead = [];
    return [...held.flatMap((early) => this.#mapRecord(early)), ...this.#mapRecord(entry)];
  }

  /** Untimed records still waiting at the end: mapped at the last time seen (the fallback clock's if none). */
  override finish(): RuntimeEvent[] {
    const held = this.#untimedHead;
    this.#untimedHead = [];
    this.builder.at(this.#times.last);
    return this.track(held.flatMap((entry) => this.#mapRecord(entry)));
  }

  #mapRecord(entry: MessageEntry): RuntimeEvent[] {
    const rawRecord = this.rawOf(entry);
    const msg = entry.msg;
    if (!isObject(msg) || str(msg.type) === undefined)
      return [
        malformedRecordWarning(this.builder, "claude message", "not an object with a string type", rawRecord),
      ];
    const ctx: ClaudeContext = { msg, raw: rawRecord, builder: this.builder, state: this.state };
    const closing = isRunStart(msg, entry.dir) ? this.#closeUnfinishedRun(ctx) : [];
    this.#lastMappedTime = this.#times.last;
    const opening = this.#noteSession(ctx);
    const events = this.#mapKind(ctx, entry.dir);
    return closing.length === 0 && opening.length === 0 ? events : [...closing, ...opening, ...events];
  }

  #mapKind(ctx: ClaudeContext, dir: MessageEntry["dir"]): RuntimeEvent[] {
    const kind = kindOf(ctx.msg);
    const row = own(dir === "out" ? CLAUDE_OUT_KINDS : CLAUDE_IN_KINDS, kind);
    if (row === undefined) return this.#unknown(ctx, dir === "out" ? `out:${kind}` : kind);
    const events = row.handle(ctx);
    // Stream framing (message_start/_delta/_stop, input JSON and signature deltas) changes no canonical state, but
    // every inbound record is accounted for: it shows as a provider event carrying its raw.
    if (events.length === 0 && dir === "in")
      return [emit(ctx, "provider.event", { name: streamKindOf(ctx.msg, kind) })];
    return events;
  }

  #closeUnfinishedRun(ctx: ClaudeContext): RuntimeEvent[] {
    this.builder.at(this.#lastMappedTime ?? this.#times.last);
    const events = closeUnfinishedRun(ctx);
    this.builder.at(this.#times.last);
    return events;
  }

  /**
   * Claude's session_id is our thread: a record naming a session id not seen before makes it the thread, and the
   * session and thread start before the record's own events (an init message only adds its configuration).
   */
  #noteSession(ctx: ClaudeContext): RuntimeEvent[] {
    const sessionKey = str(ctx.msg.session_id);
    if (sessionKey === undefined || sessionKey.length === 0 || sessionKey === this.state.providerSessionId)
      return [];
    this.state.providerSessionId = sessionKey;
    this.state.threadId = mintId(this.state.sessionId, "thread", sessionKey);
    return openSessionAndThread(ctx);
  }

  /**
   * Unknown kinds warn once per kind (later ones are provider events, so a new subtype cannot flood the host);
   * an unknown result subtype still ends its turn.
   */
  #unknown(ctx: ClaudeContext, kind: string): RuntimeEvent[] {
    const first = !this.state.warnedKinds.has(kind);
    this.state.warnedKinds.set(kind, true);
    const events = first
      ? [
          unknownKindWarning(this.builder, "Claude message kind", kind, ctx.raw, {
            threadId: this.state.threadId,
            turnId: this.state.turnId,
          }),
        ]
      : [emit(ctx, "provider.event", { name: kind, summary: "unknown kind (warned once)" })];
    if (str(ctx.msg.type) === "result" && !kind.startsWith("out:")) events.push(...mapResult(ctx));
    return events;
  }
}

/** A run of Claude Code begins with its `system:init` (in streaming input, each turn does). */
function isRunStart(msg: Record<string, unknown>, dir: MessageEntry["dir"]): boolean {
  return dir === "in" && msg.type === "system" && msg.subtype === "init";
}

/** A bare record's own time: assistant and user messages carry `timestamp`; init, result and stream events do not. */
function recordTime(msg: Record<string, unknown>): string | undefined {
  const time = msg.timestamp;
  return typeof time === "string" && time.length > 0 && !Number.isNaN(Date.parse(time)) ? time : undefined;
}

function streamKindOf(msg: Record<string, unknown>, kind: string): string {
  const event = isObject(msg.event) ? msg.event : undefined;
  const type = str(event?.type);
  const delta = isObject(event?.delta) ? str(event.delta.type) : undefined;
  return [kind, type, type === "content_block_delta" ? delta : undefined].filter(Boolean).join(":");
}
