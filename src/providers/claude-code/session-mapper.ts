import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { BaseMapper, type MessageEntry } from "../../kit/base-mapper.js";
import { raw } from "../../kit/event-builder.js";
import { isObject, type JsonObject, own, str } from "../../kit/guards.js";
import { mintId } from "../../kit/ids.js";
import { fixedClock, type MapperOptions } from "../../kit/mapper.js";
import { malformedRecordWarning } from "../../kit/warnings.js";
import { emit } from "../claude/context.js";
import { ClaudeState } from "../claude/state.js";
import { openSessionAndThread } from "../claude/system-messages.js";
import { type SessionFileContext, SessionFileState, sdkView } from "./context.js";
import { RECORD_KINDS } from "./record-table.js";
import { spawningToolOf } from "./subagents.js";
import { endTurn } from "./turns.js";
import { unknownKindOnce } from "./unknown-kinds.js";

/**
 * `--from claude-code`: a Claude Code session file, one record a line (record-kinds.ts). Events take the
 * record's `timestamp` (a record without one, the last time seen). The tool, text and thinking items are made
 * by the `claude-sdk` mapper's own handlers, so a session file and the live session it was written by give the
 * same items and details; turns are the file's own (turns.ts).
 */
/** How many untimed records at a file's head wait for a time (past it they take the fallback clock's). */
const MAX_UNTIMED_HEAD = 1_000;

export class ClaudeCodeMapper extends BaseMapper {
  readonly state: ClaudeState;
  readonly file: SessionFileState;
  #configured = false;
  /** Records met before any record with a time, mapped once one comes (or at the end). */
  #untimedHead: MessageEntry[] = [];

  constructor(options: MapperOptions) {
    // A line that is no record (cut, not JSON) has no time of its own: it takes the last record's.
    const times = { last: undefined as string | undefined, fallback: options.clock ?? fixedClock };
    super("claude-code", "claude", { ...options, clock: () => times.last ?? times.fallback() });
    this.state = new ClaudeState(options.sessionId, this.cap);
    this.file = new SessionFileState(this.cap, times);
  }

  protected rawOf(entry: MessageEntry): RuntimeEventRaw {
    const record = entry.msg;
    return raw("claude.session-file", record, undefined, isObject(record) ? kindOf(record) : undefined);
  }

  protected mapMessage(entry: MessageEntry): RuntimeEvent[] {
    const record = entry.msg;
    const time = entry.t ?? (isObject(record) ? recordTime(record) : undefined) ?? this.file.lastTime;
    // Records before the first with a time (the `summary` lines Claude Code writes at the head of a continued
    // session carry none) wait for it, and take its time rather than 1970's.
    if (time === undefined && this.#untimedHead.length < MAX_UNTIMED_HEAD) {
      this.#untimedHead.push(entry);
      return [];
    }
    if (this.#untimedHead.length === 0) return this.#mapRecord(entry, time);
    const held = this.#untimedHead;
    this.#untimedHead = [];
    return [...held.flatMap((early) => this.#mapRecord(early, time)), ...this.#mapRecord(entry, time)];
  }

  #mapRecord(entry: MessageEntry, time: string | undefined): RuntimeEvent[] {
    const rawRecord = this.rawOf(entry);
    const record = entry.msg;
    this.builder.at(time);
    this.file.lastTime = time;
    if (!isObject(record) || str(record.type) === undefined)
      return [
        malformedRecordWarning(
          this.builder,
          "Claude Code session record",
          "not an object with a string type",
          rawRecord,
          {
            threadId: this.state.threadId,
            turnId: this.state.turnId,
          },
        ),
      ];
    const parentToolUseId = spawningToolOf(record, this.file);
    const ctx: SessionFileContext = {
      msg: sdkView(record, parentToolUseId),
      record,
      raw: rawRecord,
      builder: this.builder,
      state: this.state,
      file: this.file,
    };
    const events = this.#noteSession(ctx);
    const row = own(RECORD_KINDS, str(record.type));
    events.push(...(row === undefined ? this.#unknown(ctx) : row.handle(ctx)));
    if (this.state.turnId !== undefined) this.file.turnLastTime = time;
    return events;
  }

  override finish(): RuntimeEvent[] {
    // a file with no time at all: its records as they are, at the fallback clock
    const held = this.#untimedHead;
    this.#untimedHead = [];
    const early = this.states.apply(
      this.builder,
      held.flatMap((entry) => this.#mapRecord(entry, undefined)),
    );
    for (const event of early) this.lifecycle.observe(event);
    if (this.state.turnId === undefined) return early;
    const ctx: SessionFileContext = {
      msg: {},
      record: {},
      raw: raw("runtime.transcript", "end of input"),
      builder: this.builder,
      state: this.state,
      file: this.file,
    };
    const events = this.states.apply(this.builder, endTurn(ctx, "completed", "end of input"));
    for (const event of events) this.lifecycle.observe(event);
    return [...early, ...events];
  }

  /**
   * The session starts at the first record; a record naming a Claude session id not seen before makes it the
   * thread (a session file holds one, a resumed or forked conversation may name its origin's), with the
   * configuration the record carries.
   */
  #noteSession(ctx: SessionFileContext): RuntimeEvent[] {
    const { record, state } = ctx;
    const sessionKey = str(record.sessionId);
    if (sessionKey !== undefined && sessionKey.length > 0 && sessionKey !== state.providerSessionId) {
      state.providerSessionId = sessionKey;
      state.threadId = mintId(state.sessionId, "thread", sessionKey);
    } else if (state.sessionStarted) return [];
    const events = openSessionAndThread(ctx);
    const version = str(record.version);
    if (!this.#configured && version !== undefined) {
      this.#configured = true;
      const config: Record<string, unknown> = { claudeCodeVersion: version };
      for (const key of ["cwd", "gitBranch", "entrypoint", "permissionMode"] as const)
        if (str(record[key]) !== undefined) config[key] = record[key];
      events.push(emit(ctx, "session.configured", { config }, { turnId: undefined }));
    }
    return events;
  }

  /** A record type no version writes: a warning, once per type (later ones are provider events). */
  #unknown(ctx: SessionFileContext): RuntimeEvent[] {
    return unknownKindOnce(ctx, str(ctx.record.type) ?? "(none)");
  }
}

/** `type`, or `type:subtype` for system records and `progress:<data.type>` (the coverage table's names). */
export function kindOf(record: JsonObject): string {
  const type = str(record.type) ?? "";
  if (type === "system") return `system:${str(record.subtype) ?? ""}`;
  if (type === "progress" && isObject(record.data)) return `progress:${str(record.data.type) ?? ""}`;
  return type;
}

/** The record's `timestamp`; a file-history snapshot has its time only inside (`snapshot.timestamp`). */
function recordTime(record: JsonObject): string | undefined {
  const time = record.timestamp ?? (isObject(record.snapshot) ? record.snapshot.timestamp : undefined);
  return typeof time === "string" && time.length > 0 ? time : undefined;
}
