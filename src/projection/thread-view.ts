import * as z from "zod";
import {
  CanonicalItemType,
  CanonicalRequestType,
  ItemStatus,
  ProviderKind,
  SessionState,
  ThreadState,
  TurnState,
} from "../contracts/enums.js";
import { ItemDetailsByType, type ItemDetailsOf } from "../contracts/item-details.js";
import { PlanStep, ThreadTokenUsage, TokenUsage } from "../contracts/payloads.js";

/*
 * The thread view as zod schemas: the projection takes its TS types from them, and the server publishes them in
 * its OpenAPI document (`GET /v1/sessions/:id` answers `{session, view}`), so a generated client types the view.
 */

export const TurnView = z
  .object({
    turnId: z.string(),
    state: z.union([TurnState, z.literal("running")]).describe("`running` until the turn ends."),
    model: z.string().optional(),
    startedAt: z.string().optional(),
    completedAt: z.string().optional(),
    stopReason: z.string().nullable().optional(),
    errorMessage: z.string().optional(),
    usage: TokenUsage.optional(),
    totalCostUsd: z.number().optional(),
    itemIds: z.array(z.string()).describe("The turn's items, in the order they started."),
  })
  .strict()
  .describe("One turn of the thread.");
export type TurnView = z.infer<typeof TurnView>;

const itemViewFields = {
  itemId: z.string(),
  turnId: z.string().optional(),
  parentItemId: z.string().optional().describe("The subagent call this item belongs to."),
  status: ItemStatus,
  title: z.string().optional(),
  detail: z.string().optional(),
  text: z.string().describe("Assistant, reasoning and plan text, accumulated from deltas."),
  output: z.string().describe("Command and file-change output, accumulated from deltas."),
  data: z.unknown().optional().describe("The native item (left out with `raw=0`)."),
};

export const ItemViewFields = z.object(itemViewFields);
export type ItemViewFields = z.infer<typeof ItemViewFields>;

/**
 * One item of the thread, a discriminated union on `itemType`: `details` is typed by it (the details of the
 * latest item event that carried them), so a UI renders every item from `details` alone.
 */
export type ItemView = {
  [T in CanonicalItemType]: ItemViewFields & { itemType: T; details?: ItemDetailsOf<T> };
}[CanonicalItemType];

function itemViewVariant(itemType: CanonicalItemType) {
  const details = (ItemDetailsByType as Partial<Record<CanonicalItemType, z.ZodType>>)[itemType];
  return z
    .object({
      ...itemViewFields,
      itemType: z.literal(itemType),
      ...(details === undefined ? {} : { details: details.optional() }),
    })
    .strict();
}

type ItemViewVariant = ReturnType<typeof itemViewVariant>;
const [firstItemVariant, ...otherItemVariants] = CanonicalItemType.options.map(itemViewVariant) as [
  ItemViewVariant,
  ...ItemViewVariant[],
];

export const ItemView = z
  .discriminatedUnion("itemType", [firstItemVariant, ...otherItemVariants])
  .describe("One item of the thread, its `details` typed by `itemType`.") as unknown as z.ZodType<ItemView>;

export const RequestView = z
  .object({
    requestId: z.string(),
    requestType: CanonicalRequestType,
    turnId: z.string().optional(),
    status: z.enum(["open", "resolved"]),
    detail: z.string().optional(),
    args: z.unknown().optional(),
    options: z.array(z.unknown()).optional().describe("The native answer options."),
    questions: z.unknown().optional(),
    answers: z.unknown().optional(),
    decision: z.string().optional(),
    resolution: z.unknown().optional(),
  })
  .strict()
  .describe("A request to the host (an approval, a question), open or resolved.");
export type RequestView = z.infer<typeof RequestView>;

export const TaskView = z
  .object({
    taskId: z.string(),
    status: z.enum(["running", "completed", "failed", "stopped"]),
    description: z.string().optional(),
    summary: z.string().optional(),
  })
  .strict();

export const ThreadView = z
  .object({
    sessionId: z.string().optional(),
    provider: ProviderKind.optional(),
    session: z
      .object({
        state: z.union([SessionState, z.literal("unknown")]),
        exitKind: z.enum(["graceful", "error"]).optional(),
        exitReason: z.string().optional(),
      })
      .strict(),
    config: z.record(z.string(), z.unknown()),
    threadId: z.string().optional(),
    providerThreadId: z.string().optional(),
    thread: z
      .object({
        state: z.union([ThreadState, z.literal("unknown")]),
        name: z.string().optional(),
        metadata: z.record(z.string(), z.unknown()),
      })
      .strict(),
    turns: z.array(TurnView),
    items: z.array(ItemView),
    requests: z.array(RequestView),
    plan: z.object({ explanation: z.string().nullable().optional(), steps: z.array(PlanStep) }).strict(),
    diff: z.string().optional().describe("The turn's aggregated unified diff, where the provider gives one."),
    tokenUsage: ThreadTokenUsage.optional(),
    totals: z
      .object({ tokens: z.number().int().min(0).optional(), costUsd: z.number().min(0).optional() })
      .strict()
      .optional()
      .describe(
        "The session's totals, for every provider: tokens are the thread's running total where the provider " +
          "reports one (Codex), else the sum of the turns' usage (Claude reports usage per turn only); cost is " +
          "what the turns reported, added up over agent processes (Claude's `total_cost_usd` is its process's " +
          "cost so far).",
      ),
    tasks: z.array(TaskView),
    errors: z.array(
      z.object({ sequence: z.number().int(), message: z.string(), class: z.string().optional() }).strict(),
    ),
    warnings: z.number().int().min(0).describe("How many `runtime.warning` events the stream had."),
    eventCount: z.number().int().min(0),
  })
  .strict()
  .describe("The projection of a session's canonical events: what a UI shows.");
export type ThreadView = z.infer<typeof ThreadView>;

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
