import type { TurnAttachment } from "../../src/contracts/commands.js";

/** An attachment the page sends: the file's bytes inline (a browser has no path on the agent's machine). */
export type InlineAttachment = Extract<TurnAttachment, { data: string }>;
