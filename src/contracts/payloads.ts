import * as z from "zod";
import {
  CanonicalRequestType,
  ContentStreamKind,
  PlanStepStatus,
  SessionState,
  ThreadState,
  TurnState,
} from "./enums.js";
import { ProviderThreadId } from "./ids.js";
import { ItemLifecyclePayload } from "./item-details.js";
import { providerShaped, TELEMETRY_PAYLOADS } from "./telemetry-payloads.js";

/*
 * Every field carries a `.describe()`: the text lands in the published JSON Schema and in docs/events.md, and
 * src/contracts/descriptions.test.ts fails when one is missing. Say what the field means, when it is absent, units.
 */

const count = (what: string) => z.number().optional().describe(what);

/** Token counts in one vocabulary for every provider; absent where the provider does not report them. */
export const TokenUsage = z
  .object({
    inputTokens: count(
      "Tokens of input (prompt and context) sent to the model, as the provider counts them: Codex includes the cached tokens in this number, Anthropic's models count them apart.",
    ),
    cachedInputTokens: count("Input tokens served from the provider's prompt cache."),
    cacheWriteTokens: count("Input tokens written into the prompt cache."),
    outputTokens: count("Tokens the model generated, reasoning included where the provider counts it so."),
    reasoningOutputTokens: count("Of the output, the tokens spent on reasoning (thinking)."),
    totalTokens: count(
      "All tokens of the call(s), as the provider totals them; where it gives no total, the sum of the counts it gave.",
    ),
  })
  .describe("Token counts, each absent where the provider does not report it.");
export type TokenUsage = z.infer<typeof TokenUsage>;

/** A thread's running usage: `total` for the thread so far, `last` for the latest model call. */
export const ThreadTokenUsage = z
  .object({
    total: TokenUsage.describe("Usage of the whole thread so far."),
    last: TokenUsage.optional().describe(
      "Usage of the latest model call (or turn) alone; absent where the provider reports only totals.",
    ),
    modelContextWindow: z
      .number()
      .nullable()
      .optional()
      .describe(
        "The size of the model's context window, in tokens; null where the provider says it does not know, absent where it does not say.",
      ),
  })
  .describe("A thread's token usage: the running total and the latest call.");
export type ThreadTokenUsage = z.infer<typeof ThreadTokenUsage>;

export const PlanStep = z
  .object({ step: z.string().describe("What the step is, as the agent wrote it."), status: PlanStepStatus })
  .describe("One step of the plan.");
export type PlanStep = z.infer<typeof PlanStep>;

const record = z.record(z.string(), z.unknown());

const PAYLOAD_SCHEMAS = {
  "session.started": z.object({
    message: z
      .string()
      .optional()
      .describe("A short note on how the session started (e.g. `codex thread/start`), where there is one."),
    resume: z
      .unknown()
      .optional()
      .describe(
        "For a session that resumes or forks an earlier one: what the provider said about it (e.g. the method and the native thread id). Absent for a fresh start.",
      ),
    forkedFrom: z
      .object({
        sessionId: z.string().describe("The canonical session this one was forked from."),
        turnId: z
          .string()
          .optional()
          .describe("The parent's last turn the fork holds; absent: the parent's whole conversation."),
      })
      .optional()
      .describe("For a fork: the session and turn it branched from. Absent for any other start."),
  }),
  "session.configured": z.object({
    config: record.describe(
      "Configuration values the provider reported, under its own key names (model, cwd, approval and sandbox policy, tools, modes, MCP servers, …). A later event may carry only the keys that changed.",
    ),
  }),
  "session.state.changed": z.object({
    state: SessionState,
    reason: z
      .string()
      .optional()
      .describe(
        "Why the state changed, where a native record says (e.g. an error message); absent on the changes the turn and request lifecycle implies.",
      ),
    detail: z.string().optional().describe("More about the change as text, e.g. the native error."),
  }),
  "session.exited": z.object({
    reason: z
      .string()
      .optional()
      .describe("Why the session ended: the provider's word, the host's stop, or a crash's error message."),
    recoverable: z
      .boolean()
      .optional()
      .describe(
        "Whether the session can be started again and resumed: true after a stop, false after a crash; absent where unknown.",
      ),
    exitKind: z
      .enum(["graceful", "error"])
      .optional()
      .describe(
        "`graceful` when the program shut down or was stopped in order, `error` when it crashed or failed fatally; absent where unknown.",
      ),
  }),

  "thread.started": z.object({
    providerThreadId: ProviderThreadId.optional().describe(
      "The provider's own id of the thread, where it has one (the same value as `providerRefs.providerThreadId`).",
    ),
  }),
  "thread.state.changed": z.object({
    state: ThreadState,
    detail: z
      .unknown()
      .optional()
      .describe(
        "The native status behind the change (e.g. Codex's thread status object, a resume note); absent when the change follows from the turn lifecycle alone.",
      ),
  }),
  "thread.metadata.updated": z.object({
    name: z
      .string()
      .optional()
      .describe("The thread's new name or title; absent when only metadata changed."),
    metadata: record
      .optional()
      .describe(
        "Other thread metadata the provider reported, under its own keys; absent when only the name changed.",
      ),
  }),
  "thread.token-usage.updated": z.object({
    usage: ThreadTokenUsage.describe("The thread's usage after the latest model call."),
  }),
  "thread.realtime.started": z.object({
    realtimeSessionId: z
      .string()
      .optional()
      .describe("The provider's id of the realtime session, where it gives one."),
  }),
  "thread.realtime.item-added": z.object({
    item: z.unknown().describe(providerShaped("The realtime item")),
  }),
  "thread.realtime.audio.delta": z.object({
    audio: z
      .unknown()
      .describe(providerShaped("The audio chunk with its metadata (encoding, sample rate, …)")),
  }),
  "thread.realtime.error": z.object({ message: z.string().describe("The error as the provider worded it.") }),
  "thread.realtime.closed": z.object({
    reason: z.string().optional().describe("Why the realtime session closed, where the provider says."),
  }),

  "turn.started": z.object({
    model: z.string().optional().describe("The model the turn runs on, where the provider says."),
    effort: z
      .string()
      .optional()
      .describe("The reasoning effort the turn runs with (e.g. `low`, `high`), where the provider says."),
  }),
  "turn.completed": z.object({
    state: TurnState,
    stopReason: z
      .string()
      .nullable()
      .optional()
      .describe(
        "The provider's own reason for the end (e.g. `end_turn`, `max_tokens`, `cancelled`), or the runtime's when it closed the turn (e.g. `stopped`, `end of input`); null where the provider reports none.",
      ),
    usage: TokenUsage.optional().describe(
      "Token usage of this turn, where the provider reports it with the end.",
    ),
    modelUsage: record
      .optional()
      .describe(providerShaped("Usage and cost per model (Claude's `modelUsage`), keyed by model name")),
    totalCostUsd: z
      .number()
      .optional()
      .describe(
        "The cost the provider reports with the end of the turn, in US dollars; absent where it reports none.",
      ),
    errorMessage: z
      .string()
      .optional()
      .describe(
        "For a failed turn, why it failed, where known (the provider's error, or a crash's message).",
      ),
  }),
  "turn.aborted": z.object({ reason: z.string().describe("Why the turn was abandoned.") }),
  "turn.plan.updated": z.object({
    explanation: z
      .string()
      .nullable()
      .optional()
      .describe("The agent's note about the plan; null or absent where it gave none."),
    plan: z
      .array(PlanStep)
      .describe("Every step of the plan, in order. Each update replaces the whole list; it is not a delta."),
  }),
  "turn.diff.updated": z.object({
    unifiedDiff: z
      .string()
      .describe(
        "All file changes of the turn so far as one unified diff; each update replaces the previous one.",
      ),
  }),

  "item.started": ItemLifecyclePayload,
  "item.updated": ItemLifecyclePayload,
  "item.completed": ItemLifecyclePayload,
  "content.delta": z.object({
    streamKind: ContentStreamKind,
    delta: z
      .string()
      .describe("The new text: append it to what arrived before for the same item and stream kind."),
    contentIndex: z
      .number()
      .optional()
      .describe(
        "For reasoning text: which content part of the item it extends, where the provider numbers them.",
      ),
    summaryIndex: z
      .number()
      .optional()
      .describe("For a reasoning summary: which summary part it extends, where the provider numbers them."),
  }),

  "request.opened": z.object({
    requestType: CanonicalRequestType,
    detail: z
      .string()
      .optional()
      .describe(
        "One line a UI can show with the question: the command, the file, the tool or the reason the agent gave.",
      ),
    args: z
      .unknown()
      .optional()
      .describe(
        providerShaped("The request's native parameters (the command, the patch, the tool input, …)"),
      ),
    options: z
      .array(z.unknown().describe(providerShaped("One answer option")))
      .optional()
      .describe(
        "The answer options the provider offers (ACP permission options, Codex available decisions), in its order; absent where it offers none. `respond()` takes a canonical decision and picks the option.",
      ),
  }),
  "request.resolved": z.object({
    requestType: CanonicalRequestType.describe("The request's type, as `request.opened` gave it."),
    decision: z
      .string()
      .optional()
      .describe(
        "The decision that closed the request: `accept`, `acceptForSession`, `decline` or `cancel` (also when the session stopped or the program died with the request open); absent where the answer does not tell.",
      ),
    resolution: z
      .unknown()
      .optional()
      .describe(
        providerShaped("The answer itself: the reply sent to the provider, or its own resolution record"),
      ),
  }),
  "user-input.requested": z.object({
    questions: z
      .unknown()
      .describe(
        "The questions in the provider's own shape (not normalized), usually a list with their choices; the answers go back with `respond()`.",
      ),
  }),
  "user-input.resolved": z.object({
    answers: z
      .unknown()
      .describe(
        "The answers in the provider's own shape (not normalized), keyed as the questions were; `{}` when the request was cancelled.",
      ),
  }),

  ...TELEMETRY_PAYLOADS,
} as const;

/** Each payload described as a whole too, unless it already is (the item payload union). */
function describedPayloads<T extends Record<string, z.ZodType>>(schemas: T): T {
  const entries = Object.entries(schemas).map(([type, schema]) => [
    type,
    schema.description === undefined ? schema.describe(`The fields of a \`${type}\` event.`) : schema,
  ]);
  return Object.fromEntries(entries) as T;
}

/** The payload schema of every event type. */
export const RuntimeEventPayloadSchemas = describedPayloads(PAYLOAD_SCHEMAS);

export type RuntimeEventPayloadSchemas = typeof RuntimeEventPayloadSchemas;
export type RuntimeEventPayloadByType = {
  [K in keyof RuntimeEventPayloadSchemas]: z.infer<RuntimeEventPayloadSchemas[K]>;
};
