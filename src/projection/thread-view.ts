import type {
  CanonicalItemType,
  CanonicalRequestType,
  ItemStatus,
  ProviderKind,
  SessionState,
  ThreadState,
  TurnState,
} from "../contracts/enums.js";
import type { ItemDetailsOf } from "../contracts/item-details.js";
import type { PlanStep, ThreadTokenUsage, TokenUsage } from "../contracts/payloads.js";

export interface TurnView {
  turnId: string;
  state: TurnState | "running";
  model?: string;
  startedAt?: string;
  completedAt?: string;
  stopReason?: string | null;
  errorMessage?: string;
  usage?: TokenUsage;
  totalCostUsd?: number;
  itemIds: string[];
}

export interface ItemViewFields {
  itemId: string;
  turnId?: string;
  parentItemId?: string;
  status: ItemStatus;
  title?: string;
  detail?: string;
  /** Assistant, reasoning and plan text, accumulated from deltas. */
  text: string;
  /** Command and file-change output, accumulated from deltas. */
  output: string;
  data?: unknown;
}

/**
 * One item of the thread, a discriminated union on `itemType`: `details` is typed by it (the details of the
 * latest item event that carried them), so a UI renders every item from `details` alone.
 */
export type ItemView = {
  [T in CanonicalItemType]: ItemViewFields & { itemType: T; details?: ItemDetailsOf<T> };
}[CanonicalItemType];

export interface RequestView {
  requestId: string;
  requestType: CanonicalRequestType;
  turnId?: string;
  status: "open" | "resolved";
  detail?: string;
  args?: unknown;
  options?: unknown[];
  questions?: unknown;
  answers?: unknown;
  decision?: string;
  resolution?: unknown;
}

export interface ThreadView {
  sessionId?: string;
  provider?: ProviderKind;
  session: { state: SessionState | "unknown"; exitKind?: "graceful" | "error"; exitReason?: string };
  config: Record<string, unknown>;
  threadId?: string;
  providerThreadId?: string;
  thread: { state: ThreadState | "unknown"; name?: string; metadata: Record<string, unknown> };
  turns: TurnView[];
  items: ItemView[];
  requests: RequestView[];
  plan: { explanation?: string | null; steps: PlanStep[] };
  diff?: string;
  tokenUsage?: ThreadTokenUsage;
  /**
   * The session's totals, for every provider: tokens are the thread's running total where the provider reports
   * one (Codex), else the sum of the turns' usage (Claude reports usage per turn only); cost is what the turns
   * reported, added up over agent processes (Claude's `total_cost_usd` is its process's cost so far).
   */
  totals?: { tokens?: number; costUsd?: number };
  tasks: Array<{
    taskId: string;
    status: "running" | "completed" | "failed" | "stopped";
    description?: string;
    summary?: string;
  }>;
  errors: Array<{ sequence: number; message: string; class?: string }>;
  warnings: number;
  eventCount: number;
}

export function emptyThreadView(): ThreadView {
  return {
    session: { state: "unknown" },
    config: {},
    thread: { state: "unknown", metadata: {} },
    turns: [],
    items: [],
    requests: [],
    plan: { steps: [] },
    tasks: [],
    errors: [],
    warnings: 0,
    eventCount: 0,
  };
}
