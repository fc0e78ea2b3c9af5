import type { RuntimeEventType } from "../../src/contracts/event-types.js";
import { REQUIRED_IDS, type RuntimeEvent } from "../../src/contracts/events.js";
import type { RuntimeEventPayloadByType } from "../../src/contracts/payloads.js";

type Samples = { [T in RuntimeEventType]: RuntimeEventPayloadByType[T] };
const task = "task_1" as RuntimeEventPayloadByType["task.started"]["taskId"];

/** One valid payload per event type, with every required field set. Typed, so a new type must be added here. */
export const SAMPLE_PAYLOADS: Samples = {
  "session.started": { message: "hello" },
  "session.configured": { config: { model: "m" } },
  "session.state.changed": { state: "ready" },
  "session.exited": { exitKind: "graceful" },
  "thread.started": {},
  "thread.state.changed": { state: "idle" },
  "thread.metadata.updated": { name: "n" },
  "thread.token-usage.updated": { usage: { total: { inputTokens: 1, outputTokens: 2 } } },
  "thread.realtime.started": {},
  "thread.realtime.item-added": { item: { a: 1 } },
  "thread.realtime.audio.delta": { audio: "AAAA" },
  "thread.realtime.error": { message: "bad" },
  "thread.realtime.closed": {},
  "turn.started": { model: "m" },
  "turn.completed": { state: "completed" },
  "turn.aborted": { reason: "interrupted" },
  "turn.plan.updated": { plan: [{ step: "a", status: "pending" }] },
  "turn.diff.updated": { unifiedDiff: "--- a\n+++ b\n" },
  "item.started": { itemType: "command_execution" },
  "item.updated": { itemType: "command_execution" },
  "item.completed": { itemType: "command_execution", status: "completed" },
  "content.delta": { streamKind: "assistant_text", delta: "hi" },
  "request.opened": { requestType: "command_execution_approval" },
  "request.resolved": { requestType: "command_execution_approval", decision: "accept" },
  "user-input.requested": { questions: [] },
  "user-input.resolved": { answers: {} },
  "task.started": { taskId: task },
  "task.progress": { taskId: task, description: "working" },
  "task.completed": { taskId: task, status: "completed" },
  "hook.started": { hookId: "h", hookName: "n", hookEvent: "PreToolUse" },
  "hook.progress": { hookId: "h" },
  "hook.completed": { hookId: "h", outcome: "success" },
  "tool.progress": {},
  "tool.summary": { summary: "s" },
  "auth.status": {},
  "account.updated": { account: {} },
  "account.rate-limits.updated": { rateLimits: {} },
  "mcp.status.updated": { status: {} },
  "mcp.oauth.completed": { success: true },
  "model.rerouted": { fromModel: "a", toModel: "b", reason: "r" },
  "config.warning": { summary: "s" },
  "deprecation.notice": { summary: "s" },
  "files.persisted": { files: [] },
  "runtime.warning": { message: "w" },
  "runtime.error": { message: "e", class: "provider_error" },
  "provider.event": { name: "x" },
};

/** The envelope ids each type requires (REQUIRED_IDS), with sample values. */
const SAMPLE_IDS: Partial<Record<RuntimeEventType, Record<string, string>>> = Object.fromEntries(
  Object.entries(REQUIRED_IDS).map(([type, fields]) => [
    type,
    Object.fromEntries(fields.map((field) => [field, `${field.replace("Id", "")}_1`])),
  ]),
);

export function sampleEvent<T extends RuntimeEventType>(
  type: T,
  sequence = 1,
  extra: Partial<RuntimeEvent> = {},
): RuntimeEvent {
  return {
    eventId: `s:${sequence}`,
    sequence,
    provider: "codex",
    sessionId: "s",
    createdAt: "2026-01-01T00:00:00.000Z",
    ...SAMPLE_IDS[type],
    type,
    payload: SAMPLE_PAYLOADS[type],
    ...extra,
  } as RuntimeEvent;
}
