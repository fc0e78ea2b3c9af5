import * as z from "zod";

/**
 * Canonical ids are ours: minted by the mapper kit, never a provider-native id. Each carries a description of its
 * own for the JSON Schema; the envelope and payload fields that use one describe their role on top of it.
 */
const canonicalId = <const B extends string>(_brand: B, description: string) =>
  z.string().min(1).describe(description).brand<B>();

const OPAQUE = "Opaque and deterministic: the same input with the same session id gives the same id.";

export const EventId = canonicalId("EventId", `An event's id, unique within its session. ${OPAQUE}`);
export type EventId = z.infer<typeof EventId>;
export const RuntimeSessionId = canonicalId(
  "RuntimeSessionId",
  "A session's id, chosen by the host or the runtime (e.g. `normalize --session-id`); every other canonical id is derived within it.",
);
export type RuntimeSessionId = z.infer<typeof RuntimeSessionId>;
export const ThreadId = canonicalId("ThreadId", `A conversation thread's canonical id. ${OPAQUE}`);
export type ThreadId = z.infer<typeof ThreadId>;
export const TurnId = canonicalId("TurnId", `A turn's canonical id. ${OPAQUE}`);
export type TurnId = z.infer<typeof TurnId>;
export const RuntimeItemId = canonicalId("RuntimeItemId", `An item's canonical id. ${OPAQUE}`);
export type RuntimeItemId = z.infer<typeof RuntimeItemId>;
export const RuntimeRequestId = canonicalId(
  "RuntimeRequestId",
  `A request's canonical id; \`respond()\` takes it. ${OPAQUE}`,
);
export type RuntimeRequestId = z.infer<typeof RuntimeRequestId>;
export const RuntimeTaskId = canonicalId(
  "RuntimeTaskId",
  `A background task's canonical id, shared by its task.* events. ${OPAQUE}`,
);
export type RuntimeTaskId = z.infer<typeof RuntimeTaskId>;

/** Provider-native ids, kept for correlation and debugging only. */
export const ProviderSessionId = canonicalId(
  "ProviderSessionId",
  "The provider's own session id (e.g. Claude's `session_id`, ACP's `sessionId`), for correlation only.",
);
export type ProviderSessionId = z.infer<typeof ProviderSessionId>;
export const ProviderThreadId = canonicalId(
  "ProviderThreadId",
  "The provider's own thread id (e.g. a Codex thread id), for correlation only.",
);
export type ProviderThreadId = z.infer<typeof ProviderThreadId>;
export const ProviderTurnId = canonicalId(
  "ProviderTurnId",
  "The provider's own turn id, where it has one, for correlation only.",
);
export type ProviderTurnId = z.infer<typeof ProviderTurnId>;
export const ProviderItemId = canonicalId(
  "ProviderItemId",
  "The provider's own item id (a Codex item id, a Claude tool-use id, an ACP toolCallId), for correlation only.",
);
export type ProviderItemId = z.infer<typeof ProviderItemId>;

export const IsoDateTime = z
  .string()
  .min(1)
  .describe("A point in time as an ISO-8601 string, e.g. `2025-01-31T12:00:00.000Z`.");
export type IsoDateTime = z.infer<typeof IsoDateTime>;
