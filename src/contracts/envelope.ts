import * as z from "zod";
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
export const RuntimeEventRaw = z
  .object({
    source: RawSource,
    method: z
      .string()
      .optional()
      .describe(
        "The native JSON-RPC method (Codex app server, ACP) of a request or notification; on an ACP response, the method of the request it answers. Absent where the wire has no methods.",
      ),
    messageType: z
      .string()
      .optional()
      .describe(
        "The native message's kind where the wire tags one: a Claude SDK `type`, an EventMsg or rollout line `type`, a Codex SDK event `type`, an ACP `session/update` kind. Absent where there is none.",
      ),
    payload: z
      .unknown()
      .describe("The native record itself, unchanged: the full message as the provider sent it."),
  })
  .describe(
    "The native record the event came from, kept whole so that nothing the provider said is lost. Present on every event a native record produced, also on events derived from it; absent on events the runtime made up itself (e.g. closing a session the program left open).",
  );
export type RuntimeEventRaw = z.infer<typeof RuntimeEventRaw>;

export const ProviderRefs = z
  .object({
    providerSessionId: ProviderSessionId.optional(),
    providerThreadId: ProviderThreadId.optional(),
    providerTurnId: ProviderTurnId.optional(),
    providerItemId: ProviderItemId.optional(),
    providerRequestId: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The provider's own id of the request (a JSON-RPC request id, an approval id, a tool-use id), for correlation only.",
      ),
  })
  .describe(
    "The provider's native ids behind the canonical ones, for correlation and debugging; a host should not key on them. Each is absent where the provider has no such id or the event does not concern it.",
  );
export type ProviderRefs = z.infer<typeof ProviderRefs>;

export const RuntimeEventEnvelope = z.object({
  eventId: EventId,
  sequence: z
    .number()
    .int()
    .min(1)
    .describe(
      "Extension: the event's position in its session, from 1, one more for each event and without gaps. Order and de-duplicate by it.",
    ),
  provider: ProviderKind,
  sessionId: RuntimeSessionId.describe(
    "The session the event belongs to; the same on every event of a stream.",
  ),
  createdAt: IsoDateTime.describe(
    "When the event happened: the record's own timestamp where the transcript or the provider gives one, else the time it was mapped: live, the time the driver read the record, to the microsecond (`2026-12-02T07:05:01.123456Z`); in replays without timestamps a fixed `1970-01-01T00:00:00.000Z`, so output stays byte-identical.",
  ),
  threadId: ThreadId.describe(
    "The thread the event belongs to; absent before a thread is known (e.g. the session's own start and configuration) and on session-wide events. Required on thread.started.",
  ).optional(),
  turnId: TurnId.describe(
    "The turn the event belongs to; absent outside a turn. Required on turn.started/completed/aborted.",
  ).optional(),
  itemId: RuntimeItemId.describe(
    "The item the event belongs to. Required on item.* and content.delta; may be present on a request or tool event that concerns an item.",
  ).optional(),
  requestId: RuntimeRequestId.describe(
    "The request the event belongs to: the id to answer with `respond()`. Required on request.* and user-input.*.",
  ).optional(),
  parentItemId: RuntimeItemId.describe(
    "Extension: on the item and task events of a subagent, the `collab_agent_tool_call` item that started it; absent for the main agent's own activity.",
  ).optional(),
  providerRefs: ProviderRefs.optional(),
  raw: RuntimeEventRaw.optional(),
});
export type RuntimeEventEnvelope = z.infer<typeof RuntimeEventEnvelope>;
