import * as z from "zod";
import { ApprovalDecision, SessionState } from "../contracts/enums.js";
import { RuntimeEventSchema } from "../contracts/events.js";
import { ThreadView } from "../projection/thread-view.js";
import { CREATE_CONTROL_FIELDS, TURN_CONTROL_FIELDS } from "./control-schemas.js";

/**
 * The server's request and response bodies (DESIGN.md §9), one zod schema each: the server validates with them
 * and generates its OpenAPI document from them; the remote client and the inspector take their types.
 */

export const API_PROVIDERS = ["codex", "codex-sdk", "claude", "cursor", "acp"] as const;

export const CreateSessionBody = z
  .object({
    provider: z.enum(API_PROVIDERS).describe("The driver to run."),
    cwd: z
      .string()
      .min(1)
      .optional()
      .describe("The agent's working directory; must lie inside the server's --root."),
    model: z.string().min(1).optional().describe("The model the agent should use."),
    agent: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe("An ACP agent's command line (provider acp), or a known agent's name as its first word."),
    resume: z.string().min(1).optional().describe("A native thread or session id to resume."),
    ...CREATE_CONTROL_FIELDS,
  })
  .strict();
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

export const SessionSummary = z.object({
  id: z.string().describe("The canonical session id."),
  provider: z.string().describe("The driver provider, or an imported history's source."),
  origin: z.enum(["live", "import"]).describe("`import`: read-only history."),
  state: SessionState,
  createdAt: z.string(),
  updatedAt: z.string(),
  lastSequence: z.number().int().min(0).describe("The sequence of the last stored event."),
  openRequests: z.number().int().min(0).describe("Requests awaiting an answer."),
  cwd: z.string().optional(),
  model: z.string().optional(),
  title: z.string().optional().describe("The first prompt, shortened."),
  exited: z.boolean().describe("The agent has exited; a new turn resumes it natively."),
  parentId: z.string().optional().describe("A fork: the session it was forked from."),
  archived: z.boolean().optional().describe("True when archived: left out of lists unless asked for."),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const SessionList = z.object({
  sessions: z.array(SessionSummary),
  next: z.string().optional().describe("The `cursor` of the next page; absent on the last page."),
});
export type SessionList = z.infer<typeof SessionList>;

/** `raw=0`: leave the native records out of an answer (the store keeps them). */
export const RawFlag = z
  .enum(["0", "1"])
  .optional()
  .describe("`0` leaves out the native records (each event's `raw`, each item's `data`); default `1`.");

export const SessionQuery = z.object({ raw: RawFlag });

export const SessionDetail = z.object({
  session: SessionSummary,
  view: ThreadView.describe("The projection's thread view of the stored events."),
});
export type SessionDetail = z.infer<typeof SessionDetail>;

export const TurnBody = z
  .object({ text: z.string().min(1).describe("The user's prompt."), ...TURN_CONTROL_FIELDS })
  .strict();
export type TurnBody = z.infer<typeof TurnBody>;

export const RespondBody = z
  .object({
    decision: ApprovalDecision,
    answers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
    message: z.string().optional(),
    payload: z.unknown().optional(),
  })
  .strict();
export type RespondBody = z.infer<typeof RespondBody>;

export const EVENTS_PAGE_LIMIT = 1_000;

export const EventsQuery = z.object({
  after: z.coerce.number().int().min(0).optional().describe("Events with a sequence above this; default 0."),
  limit: z.coerce.number().int().min(1).max(EVENTS_PAGE_LIMIT).optional(),
  raw: RawFlag,
  ticket: z
    .string()
    .min(1)
    .optional()
    .describe(
      "A stream ticket (`POST …/events/tickets`) in place of the bearer token, for a browser's EventSource: " +
        "single use, 60 s, this session only.",
    ),
});

/** The SSE form's query: a page's `limit` aside, the same. */
export const EventStreamQuery = EventsQuery.omit({ limit: true });

export const EventsPage = z.object({
  events: z
    .array(RuntimeEventSchema)
    .describe("Canonical events, exactly as the driver emitted them (without `raw` when `raw=0`)."),
  next: z.number().int().min(0).describe("The `after` of the next page (the last sequence returned)."),
});

export const StreamTicket = z.object({
  ticket: z.string().describe("Good for one `GET …/events?ticket=T` of this session."),
  expiresAt: z.string().describe("When the ticket stops being accepted (ISO 8601), 60 s after it was made."),
});
export type StreamTicket = z.infer<typeof StreamTicket>;

export const StoreHealth = z
  .object({
    backend: z.enum(["sqlite", "jetstream"]),
    connected: z.boolean().describe("False while the store's engine (NATS) is unreachable."),
    downSince: z.string().optional().describe("When the outage began."),
    buffered: z
      .object({ events: z.number().int().min(0), bytes: z.number().int().min(0) })
      .optional()
      .describe("Events accepted and not yet stored in the engine (published when it is back)."),
    lastError: z.string().optional(),
  })
  .describe("The store's engine; absent for the embedded store.");

export const Health = z.object({
  ok: z.boolean().describe("False while the store's engine is unreachable."),
  version: z.string(),
  store: StoreHealth.optional(),
});
export type Health = z.infer<typeof Health>;

export const ErrorBody = z.object({
  error: z.string().describe("What was wrong, in a sentence."),
  field: z.string().optional().describe("For a 400: the path of the first bad field."),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
