import type { RuntimeEventPayloadByType } from "./payloads.js";

/** The 45 event types of EVENTS.md §1.2. */
export const SPEC_EVENT_TYPES = [
  "session.started",
  "session.configured",
  "session.state.changed",
  "session.exited",
  "thread.started",
  "thread.state.changed",
  "thread.metadata.updated",
  "thread.token-usage.updated",
  "thread.realtime.started",
  "thread.realtime.item-added",
  "thread.realtime.audio.delta",
  "thread.realtime.error",
  "thread.realtime.closed",
  "turn.started",
  "turn.completed",
  "turn.aborted",
  "turn.plan.updated",
  "turn.diff.updated",
  "item.started",
  "item.updated",
  "item.completed",
  "content.delta",
  "request.opened",
  "request.resolved",
  "user-input.requested",
  "user-input.resolved",
  "task.started",
  "task.progress",
  "task.completed",
  "hook.started",
  "hook.progress",
  "hook.completed",
  "tool.progress",
  "tool.summary",
  "auth.status",
  "account.updated",
  "account.rate-limits.updated",
  "mcp.status.updated",
  "mcp.oauth.completed",
  "model.rerouted",
  "config.warning",
  "deprecation.notice",
  "files.persisted",
  "runtime.warning",
  "runtime.error",
] as const;

/** The extensions of DESIGN.md §2 that are event types of their own. */
export const EXTENSION_EVENT_TYPES = ["provider.event"] as const;

export const RUNTIME_EVENT_TYPES = [...SPEC_EVENT_TYPES, ...EXTENSION_EVENT_TYPES] as const;
export type RuntimeEventType = (typeof RUNTIME_EVENT_TYPES)[number];

// The spec's "both should be never": the type list and the payload map must agree.
/** The event types in `Types` that have no payload schema (generic so that a test can feed it a stray type). */
export type MissingPayloadTypes<Types extends string = RuntimeEventType> = Exclude<
  Types,
  keyof RuntimeEventPayloadByType
>;
/** Payload schemas for types that are not in the type list. */
export type ExtraPayloadTypes = Exclude<keyof RuntimeEventPayloadByType, RuntimeEventType>;
export type AssertNever<T extends never> = T;
export type TypeListAndPayloadMapAgree = [AssertNever<MissingPayloadTypes>, AssertNever<ExtraPayloadTypes>];
