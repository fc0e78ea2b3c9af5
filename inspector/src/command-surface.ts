/**
 * The command surface of DESIGN.md §11 as the page reads it from `GET /v1/agents` and sends it to the routes of
 * §9 (types kept here: the page imports no zod).
 */
export interface AgentCapabilities {
  approvals?: boolean;
  questions?: boolean;
  subagents?: boolean;
  plan?: boolean;
  attachments?: Array<"image" | "file">;
  steer?: boolean;
  queue?: boolean;
  fork?: boolean;
  setModel?: boolean;
  setMode?: boolean;
  effort?: boolean;
  mcpServers?: boolean;
  resume?: boolean;
  models?: Array<{ id: string; name?: string; default?: boolean }>;
  modes?: Array<{ id: string; name: string; canonical?: string }>;
}

export interface AgentInfo {
  provider: string;
  agent?: string;
  installed: boolean;
  version?: string;
  testedVersion?: string;
  capabilities?: AgentCapabilities;
}

/** `PATCH /v1/sessions/:id`. */
export interface SessionPatchBody {
  model?: string;
  mode?: string;
  effort?: string;
  title?: string;
  archived?: boolean;
}

export interface Attachment {
  type: "image" | "file";
  mediaType: string;
  /** Base64. */
  data: string;
  name?: string;
}

export type Delivery = "reject" | "queue" | "steer";

/** The canonical modes every provider maps (DESIGN.md §11). */
export const CANONICAL_MODES = ["ask", "edits", "plan", "full"] as const;
export const EFFORTS = ["low", "medium", "high"] as const;

/** Fields [sessions] adds to a session's summary: absent on servers without them. */
export interface SummaryExtras {
  parentId?: string;
  archived?: boolean;
}
