import { statSync } from "node:fs";
import { extname, resolve } from "node:path";
import type { RuntimeDriver, TurnAttachment } from "../../contracts/driver.js";

/**
 * `chat`'s command surface (DESIGN.md §4, §11): `/model [NAME]`, `/mode [NAME]`, `/attach PATH`, and what a line
 * typed while a turn runs does — it steers the turn, or with the `>>` prefix waits as the next turn (queue).
 */

/** A line that starts with this, typed while a turn runs, queues the rest as the next turn. */
export const QUEUE_PREFIX = ">>";

export const CHAT_COMMANDS_HELP = `  /model [NAME]           the agent's models, or switch to NAME for the next turns
  /mode [NAME]            the agent's modes, or switch (ask | edits | plan | full, or a native mode id)
  /attach PATH            send an image (png, jpeg, gif, webp) or a file with the next prompt
  typing while a turn runs  steers it (the text joins the running turn, where the agent can be steered)
  ${QUEUE_PREFIX} TEXT                 while a turn runs: TEXT becomes the next turn, started when this one ends
`;

const IMAGE_EXTENSIONS = new Set([".png", ".jpg", ".jpeg", ".gif", ".webp"]);

/** What one chat line asks for. */
export type ChatLine =
  | { kind: "model"; name: string | undefined }
  | { kind: "mode"; name: string | undefined }
  | { kind: "attach"; path: string | undefined }
  | { kind: "queue"; text: string }
  | { kind: "other" };

export function parseChatLine(input: string): ChatLine {
  const [command, ...rest] = input.split(/\s+/);
  const argument = rest.join(" ").trim();
  const value = argument.length === 0 ? undefined : argument;
  if (command === "/model") return { kind: "model", name: value };
  if (command === "/mode") return { kind: "mode", name: value };
  if (command === "/attach") return { kind: "attach", path: value };
  if (input.startsWith(QUEUE_PREFIX)) return { kind: "queue", text: input.slice(QUEUE_PREFIX.length).trim() };
  return { kind: "other" };
}

/**
 * An attachment for a path typed at the prompt (an image by its extension, else a file), or why it cannot be
 * one: a path that is no readable file is said at once, not when the next turn fails.
 */
export function attachmentFor(path: string, cwd: string): TurnAttachment | string {
  const absolute = resolve(cwd, path);
  try {
    if (!statSync(absolute).isFile()) return `${path} is not a file`;
  } catch {
    return `cannot read ${path}`;
  }
  return IMAGE_EXTENSIONS.has(extname(absolute).toLowerCase())
    ? { type: "image", path: absolute }
    : { type: "file", path: absolute };
}

/** `/model` or `/mode` without a name: what the agent offers, one line. */
export function offered(driver: RuntimeDriver, what: "model" | "mode"): string {
  const { capabilities } = driver;
  if (what === "model") {
    const models = capabilities.models ?? [];
    if (!capabilities.setModel) return "this agent cannot change its model";
    return models.length === 0
      ? "the agent lists no models: /model NAME passes NAME on"
      : `models: ${models.map((model) => (model.default === true ? `${model.id} (default)` : model.id)).join(", ")}`;
  }
  const modes = capabilities.modes ?? [];
  if (!capabilities.setMode) return "this agent cannot change its mode";
  return `modes: ${modes.map((mode) => (mode.canonical === undefined ? mode.id : `${mode.id} (${mode.canonical})`)).join(", ")}`;
}
