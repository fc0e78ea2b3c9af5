import { z } from "zod";
import {
  CanonicalRequestType,
  ContentStreamKind,
  PlanStepStatus,
  RuntimeErrorClass,
  SessionState,
  ThreadState,
  TurnState,
} from "./enums.js";
import { ProviderThreadId, RuntimeTaskId } from "./ids.js";
import { ItemLifecyclePayload } from "./item-details.js";

/** Token counts in one vocabulary for every provider; absent where the provider does not report them. */
export const TokenUsage = z.object({
  inputTokens: z.number().optional(),
  cachedInputTokens: z.number().optional(),
  cacheWriteTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  reasoningOutputTokens: z.number().optional(),
  totalTokens: z.number().optional(),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

/** A thread's running usage: `total` for the thread so far, `last` for the latest model call. */
export const ThreadTokenUsage = z.object({
  total: TokenUsage,
  last: TokenUsage.optional(),
  modelContextWindow: z.number().nullable().optional(),
});
export type ThreadTokenUsage = z.infer<typeof ThreadTokenUsage>;

export const PlanStep = z.object({ step: z.string(), status: PlanStepStatus });
export type PlanStep = z.infer<typeof PlanStep>;

const record = z.record(z.string(), z.unknown());

export const RuntimeEventPayloadSchemas = {
  "session.started": z.object({ message: z.string().optional(), resume: z.unknown().optional() }),
  "session.configured": z.object({ config: record }),
  "session.state.changed": z.object({
    state: SessionState,
    reason: z.string().optional(),
    detail: z.string().optional(),
  }),
  "session.exited": z.object({
    reason: z.string().optional(),
    recoverable: z.boolean().optional(),
    exitKind: z.enum(["graceful", "error"]).optional(),
  }),

  "thread.started": z.object({ providerThreadId: ProviderThreadId.optional() }),
  "thread.state.changed": z.object({ state: ThreadState, detail: z.unknown().optional() }),
  "thread.metadata.updated": z.object({ name: z.string().optional(), metadata: record.optional() }),
  "thread.token-usage.updated": z.object({ usage: ThreadTokenUsage }),
  "thread.realtime.started": z.object({ realtimeSessionId: z.string().optional() }),
  "thread.realtime.item-added": z.object({ item: z.unknown() }),
  "thread.realtime.audio.delta": z.object({ audio: z.unknown() }),
  "thread.realtime.error": z.object({ message: z.string() }),
  "thread.realtime.closed": z.object({ reason: z.string().optional() }),

  "turn.started": z.object({ model: z.string().optional(), effort: z.string().optional() }),
  "turn.completed": z.object({
    state: TurnState,
    stopReason: z.string().nullable().optional(),
    usage: TokenUsage.optional(),
    modelUsage: record.optional(),
    totalCostUsd: z.number().optional(),
    errorMessage: z.string().optional(),
  }),
  "turn.aborted": z.object({ reason: z.string() }),
  "turn.plan.updated": z.object({ explanation: z.string().nullable().optional(), plan: z.array(PlanStep) }),
  "turn.diff.updated": z.object({ unifiedDiff: z.string() }),

  "item.started": ItemLifecyclePayload,
  "item.updated": ItemLifecyclePayload,
  "item.completed": ItemLifecyclePayload,
  "content.delta": z.object({
    streamKind: ContentStreamKind,
    delta: z.string(),
    contentIndex: z.number().optional(),
    summaryIndex: z.number().optional(),
  }),

  "request.opened": z.object({
    requestType: CanonicalRequestType,
    detail: z.string().optional(),
    args: z.unknown().optional(),
    /** The native answer options offered (ACP options, Codex available decisions). */
    options: z.array(z.unknown()).optional(),
  }),
  "request.resolved": z.object({
    requestType: CanonicalRequestType,
    decision: z.string().optional(),
    resolution: z.unknown().optional(),
  }),
  "user-input.requested": z.object({ questions: z.unknown() }),
  "user-input.resolved": z.object({ answers: z.unknown() }),

  "task.started": z.object({
    taskId: RuntimeTaskId,
    description: z.string().optional(),
    taskType: z.string().optional(),
  }),
  "task.progress": z.object({
    taskId: RuntimeTaskId,
    description: z.string(),
    usage: z.unknown().optional(),
    lastToolName: z.string().optional(),
  }),
  "task.completed": z.object({
    taskId: RuntimeTaskId,
    status: z.enum(["completed", "failed", "stopped"]),
    summary: z.string().optional(),
    usage: z.unknown().optional(),
  }),
  "hook.started": z.object({ hookId: z.string(), hookName: z.string(), hookEvent: z.string() }),
  "hook.progress": z.object({
    hookId: z.string(),
    output: z.string().optional(),
    stdout: z.string().optional(),
    stderr: z.string().optional(),
  }),
  "hook.completed": z.object({
    hookId: z.string(),
    outcome: z.enum(["success", "error", "cancelled"]),
    output: z.string().optional(),
    stdout: z.string().optional(),
    stderr: z.string().optional(),
    exitCode: z.number().optional(),
  }),
  "tool.progress": z.object({
    toolUseId: z.string().optional(),
    toolName: z.string().optional(),
    summary: z.string().optional(),
    elapsedSeconds: z.number().optional(),
  }),
  "tool.summary": z.object({ summary: z.string(), precedingToolUseIds: z.array(z.string()).optional() }),
  "auth.status": z.object({
    isAuthenticating: z.boolean().optional(),
    output: z.array(z.string()).optional(),
    error: z.string().optional(),
  }),
  "account.updated": z.object({ account: z.unknown() }),
  "account.rate-limits.updated": z.object({ rateLimits: z.unknown() }),
  "mcp.status.updated": z.object({ status: z.unknown() }),
  "mcp.oauth.completed": z.object({
    success: z.boolean(),
    name: z.string().optional(),
    error: z.string().optional(),
  }),
  "model.rerouted": z.object({ fromModel: z.string(), toModel: z.string(), reason: z.string() }),
  "config.warning": z.object({
    summary: z.string(),
    details: z.string().optional(),
    path: z.string().optional(),
    range: z.unknown().optional(),
  }),
  "deprecation.notice": z.object({ summary: z.string(), details: z.string().optional() }),
  "files.persisted": z.object({
    files: z.array(z.object({ filename: z.string(), fileId: z.string() })),
    failed: z.array(z.object({ filename: z.string(), error: z.string() })).optional(),
  }),
  "runtime.warning": z.object({ message: z.string(), detail: z.unknown().optional() }),
  "runtime.error": z.object({
    message: z.string(),
    class: RuntimeErrorClass.optional(),
    detail: z.unknown().optional(),
  }),

  /** Extension (DESIGN §2): a known native message that no canonical family fits. Not a warning. */
  "provider.event": z.object({ name: z.string(), summary: z.string().optional() }),
} as const;

export type RuntimeEventPayloadSchemas = typeof RuntimeEventPayloadSchemas;
export type RuntimeEventPayloadByType = {
  [K in keyof RuntimeEventPayloadSchemas]: z.infer<RuntimeEventPayloadSchemas[K]>;
};
