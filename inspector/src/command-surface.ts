import type { SessionSettingsBody } from "../../src/api/control-schemas.js";
import type { TurnAttachment } from "../../src/contracts/commands.js";

/**
 * What the page sends and reads of the command surface (DESIGN.md §11) beyond the contract's own types
 * (src/contracts/commands.ts, which the page imports directly).
 */

/** An attachment the page sends: the file's bytes inline (a browser has no path on the agent's machine). */
export type InlineAttachment = Extract<TurnAttachment, { data: string }>;

/** `PATCH /v1/sessions/:id`: the settings, and the fields [sessions] adds (title, archived). */
export type SessionPatchBody = SessionSettingsBody & { title?: string; archived?: boolean };

/** Fields [sessions] adds to a session's summary: absent on servers without them. */
export interface SummaryExtras {
  parentId?: string;
  archived?: boolean;
}
