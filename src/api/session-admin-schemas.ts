import * as z from "zod";
import { SessionState } from "../contracts/enums.js";
import { SESSION_SETTINGS_FIELDS } from "./control-schemas.js";

/**
 * The bodies and queries of the routes a person manages sessions with (DESIGN.md §9): fork, rename and archive,
 * list and search, purge.
 */

export const ForkBody = z
  .object({
    afterTurnId: z
      .string()
      .min(1)
      .optional()
      .describe("The parent's canonical turn the fork ends with; default: all of its conversation."),
  })
  .strict();
export type ForkBody = z.infer<typeof ForkBody>;

export const TITLE_MAX = 200;

export const SessionAdminPatch = z.object({
  title: z
    .string()
    .trim()
    .min(1)
    .max(TITLE_MAX)
    .optional()
    .describe("The session's name in lists; also a `thread.metadata.updated` in its stream."),
  archived: z.boolean().optional().describe("Archived sessions are left out of lists unless `archived=1`."),
});
export type SessionAdminPatch = z.infer<typeof SessionAdminPatch>;

/** `PATCH /v1/sessions/:id`: the settings of the command surface (DESIGN.md §11) and the person's own. */
export const SessionPatchBody = z.object({ ...SESSION_SETTINGS_FIELDS, ...SessionAdminPatch.shape }).strict();
export type SessionPatchBody = z.infer<typeof SessionPatchBody>;

export const LIST_LIMIT_MAX = 500;
export const LIST_LIMIT_DEFAULT = 100;

const flag = z.enum(["0", "1", "true", "false"]).transform((value) => value === "1" || value === "true");

export const ListSessionsQuery = z.object({
  q: z.string().max(500).optional().describe("Words that a session's title or one of its prompts holds."),
  provider: z.string().min(1).max(100).optional(),
  state: SessionState.optional(),
  archived: flag.optional().describe("`1`: the archived sessions only; default: the others only."),
  limit: z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).optional(),
  cursor: z.string().min(1).max(400).optional().describe("The `next` of the previous page."),
});
export type ListSessionsQuery = z.infer<typeof ListSessionsQuery>;

export const PurgeQuery = z.object({
  purge: flag.optional().describe("`1`: also remove the stored events, the native state and the entry."),
});
