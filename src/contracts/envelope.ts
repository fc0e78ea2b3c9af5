import { z } from "zod";
import { ProviderKind, RawSource } from "./enums.js";
import {
  EventId,
  IsoDateTime,
  ProviderItemId,
  ProviderSessionId,
  ProviderThreadId,
  ProviderTurnId,
  RuntimeItemId,
  RuntimeRequestId,
  RuntimeSessionId,
  ThreadId,
  TurnId,
} from "./ids.js";

/** The native record an event came from, kept whole so no provider detail is lost. */
export const RuntimeEventRaw = z.object({
  source: RawSource,
  method: z.string().optional(),
  messageType: z.string().optional(),
  payload: z.unknown(),
});
export type RuntimeEventRaw = z.infer<typeof RuntimeEventRaw>;

export const ProviderRefs = z.object({
  providerSessionId: ProviderSessionId.optional(),
  providerThreadId: ProviderThreadId.optional(),
  providerTurnId: ProviderTurnId.optional(),
  providerItemId: ProviderItemId.optional(),
  providerRequestId: z.string().min(1).optional(),
});
export type ProviderRefs = z.infer<typeof ProviderRefs>;

export const RuntimeEventEnvelope = z.object({
  eventId: EventId,
  /** Extension: per session, from 1, +1 per event. Consumers order and de-duplicate by it. */
  sequence: z.number().int().min(1),
  provider: ProviderKind,
  sessionId: RuntimeSessionId,
  createdAt: IsoDateTime,
  threadId: ThreadId.optional(),
  turnId: TurnId.optional(),
  itemId: RuntimeItemId.optional(),
  requestId: RuntimeRequestId.optional(),
  /** Extension: the collab_agent_tool_call item whose subagent produced this item/task event. */
  parentItemId: RuntimeItemId.optional(),
  providerRefs: ProviderRefs.optional(),
  raw: RuntimeEventRaw.optional(),
});
export type RuntimeEventEnvelope = z.infer<typeof RuntimeEventEnvelope>;
