import type { RuntimeEvent } from "../../contracts/events.js";
import { BoundedMap } from "../../kit/bounded-map.js";
import { idKey, type JsonObject, str } from "../../kit/guards.js";
import type { ClaudeContext } from "../claude/context.js";

/** What the session-file mapper keeps beyond the Claude mapper's state (ClaudeState). */
export class SessionFileState {
  /** The last record time seen: records without a `timestamp` (bookkeeping lines, unreadable lines) take it. */
  get lastTime(): string | undefined {
    return this.times.last;
  }
  set lastTime(time: string | undefined) {
    this.times.last = time;
  }
  /** The time of the open turn's last record: its derived end carries it, not the next prompt's. */
  turnLastTime: string | undefined;
  /** The open turn's last assistant `stop_reason`, and the API error it ended on, if any. */
  turnStopReason: string | null | undefined;
  turnError: string | undefined;
  /** A subagent's `agentId` → the Agent/Task tool_use id that spawned it. */
  readonly agentTools: BoundedMap<string, string>;
  /** A sidechain record's `uuid` → its subagent's tool_use id (links records of files without `agentId`). */
  readonly sidechainTools: BoundedMap<string, string>;
  /** The hash of an Agent/Task call's prompt → the calls with it that no subagent took yet, in order. */
  readonly agentPrompts: BoundedMap<string, string[]>;

  constructor(
    cap: number,
    private readonly times: { last: string | undefined } = { last: undefined },
  ) {
    this.agentTools = new BoundedMap(cap);
    this.sidechainTools = new BoundedMap(cap);
    this.agentPrompts = new BoundedMap(cap);
  }
}

/** A Claude handler's context plus the record as written and the session-file state. */
export interface SessionFileContext extends ClaudeContext {
  /** The record as the file has it (`msg` is its view in the SDK's field names, see sdkView). */
  readonly record: JsonObject;
  readonly file: SessionFileState;
}

export type SessionFileHandler = (ctx: SessionFileContext) => RuntimeEvent[];

/**
 * The record under the field names the shared Claude handlers read: the session id as `session_id`, a tool
 * result's `toolUseResult` as `tool_use_result`, and the spawning tool call of a subagent record (resolved by
 * subagents.ts) as `parent_tool_use_id`. The record itself stays untouched in `raw`.
 */
export function sdkView(record: JsonObject, parentToolUseId: string | undefined): JsonObject {
  return {
    ...record,
    session_id: str(record.sessionId),
    parent_tool_use_id: parentToolUseId ?? null,
    tool_use_result: record.toolUseResult,
  };
}

export function isSidechain(record: JsonObject): boolean {
  return record.isSidechain === true;
}

export function agentIdOf(record: JsonObject): string | undefined {
  return idKey(record.agentId);
}
