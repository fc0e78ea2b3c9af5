import type { CanonicalItemType, CanonicalRequestType, PlanStepStatus } from "../../contracts/enums.js";
import type { ItemDetails } from "../../contracts/item-details.js";
import { BoundedMap } from "../../kit/bounded-map.js";
import { IdTable } from "../../kit/id-table.js";

/** One streamed content block, identified by (scope, message id, content index). */
export interface StreamBlock {
  key: string;
  itemId: string;
  kind: "text" | "thinking" | "tool";
  /** Text or thinking streamed so far. */
  text: string;
  stopped: boolean;
  completed: boolean;
  index: number;
  toolUseId?: string;
  parentItemId?: string;
  messageId: string;
  /** The envelope ids of the block's events, built once (none of the fields above them changes). */
  ids?: { itemId: string; parentItemId?: string; providerRefs: { providerItemId: string } };
}

export interface ToolState {
  toolName: string;
  itemType: CanonicalItemType;
  inputJson: string;
  input: unknown;
  inputFinal: boolean;
  /** The item's details as the name, then the complete input, tell them (see tool-details.ts). */
  details?: ItemDetails;
  /** An `mcp_tool_use` block's server (Claude Code's own MCP tools name theirs in the tool name). */
  serverName?: string;
  parentItemId?: string;
  /** The host declined (or the session cancelled) its permission request. */
  declined: boolean;
}

export interface RequestState {
  requestId: string;
  requestType: CanonicalRequestType;
  toolUseId?: string;
  itemId?: string;
  isQuestion: boolean;
}

export interface PlanEntry {
  id: string;
  step: string;
  status: PlanStepStatus;
}

/** Everything the Claude mapper remembers between records; every table is bounded by the mapper's cap. */
export class ClaudeState {
  /** Claude's `session_id` (our thread). */
  providerSessionId: string | undefined;
  threadId: string | undefined;
  readonly startedThreads: BoundedMap<string, true>;
  sessionStarted = false;
  turnId: string | undefined;
  /** The thread the open turn runs on (a record of the next run may name another session before its init). */
  turnThread: { threadId: string | undefined; providerSessionId: string | undefined } | undefined;
  /**
   * Whether the open turn has met the `system:init` of its run. A turn opened by the host's prompt meets its init
   * after it starts; a second init while the turn is open starts a new run (`claude -p` restarted, its output
   * appended to one log) and the open turn is what the previous run left unfinished.
   */
  turnSawInit = false;
  /** An init arrived while no turn was open: the next turn belongs to that init's run. */
  initAwaitingTurn = false;
  turnCount = 0;
  interruptRequested = false;
  userMessageCount = 0;
  snapshotCount = 0;
  readonly warnedKinds: BoundedMap<string, true>;
  /** Stream scope ("main" or a parent tool_use id) → the message id being streamed. */
  readonly currentMessage: BoundedMap<string, string>;
  readonly blocks: BoundedMap<string, StreamBlock>;
  /** `scope|messageId` → its blocks in stream order. */
  readonly messageBlocks: BoundedMap<string, StreamBlock[]>;
  readonly tools: IdTable<ToolState>;
  readonly finishedTools: BoundedMap<string, true>;
  /** Keyed by the permission record's `requestKey`. */
  readonly requests: BoundedMap<string, RequestState>;
  /** tool_use id → requestKey of its open permission request. */
  readonly requestByTool: BoundedMap<string, string>;
  plan: PlanEntry[] = [];
  /** task_id → the tool_use id of the Task/Agent call that runs it (task_updated does not repeat it). */
  readonly taskTools: BoundedMap<string, string>;

  constructor(
    readonly sessionId: string,
    cap: number,
  ) {
    this.startedThreads = new BoundedMap(cap);
    this.warnedKinds = new BoundedMap(cap);
    this.currentMessage = new BoundedMap(cap);
    this.blocks = new BoundedMap(cap);
    this.messageBlocks = new BoundedMap(cap);
    this.tools = new IdTable(sessionId, "item", cap);
    this.finishedTools = new BoundedMap(cap);
    this.requests = new BoundedMap(cap);
    this.requestByTool = new BoundedMap(cap);
    this.taskTools = new BoundedMap(cap);
  }
}
