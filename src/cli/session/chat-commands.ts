import { statSync } from "node:fs";
import { extname, resolve } from "node:path";
import type { RuntimeDriver, TurnInput } from "../../contracts/driver.js";

/** A file for the next turn, as DESIGN.md §11 names one: by path, an image or any other file. */
export interface PathAttachment {
  type: "image" | "file";
  path: string;
}

/**
 * The calls of the one command surface (DESIGN.md §11) that chat uses, where the driver has them: a driver
 * without `configure` or without a kind of attachment in its `capabilities` is told so at the prompt, never
 * silently ignored.
 */
interface CommandSurface {
  capabilities?: { attachments?: readonly string[]; setModel?: boolean; setMode?: boolean };
  configure?: (change: { model?: string; mode?: string }) => Promise<unknown>;
}

const IMAGE_EXTENSIONS = new Set([".png", ".jpg", ".jpeg", ".gif", ".webp"]);

function surfaceOf(driver: RuntimeDriver): CommandSurface {
  return driver as unknown as CommandSurface;
}

/** `/attach PATH`: the attachment, or why it cannot be one. */
export function attachment(driver: RuntimeDriver, path: string, cwd: string): PathAttachment | string {
  if (path.length === 0) return "usage: /attach PATH";
  const absolute = resolve(cwd, path);
  try {
    if (!statSync(absolute).isFile()) return `${path} is not a file`;
  } catch {
    return `cannot read ${path}`;
  }
  const type = IMAGE_EXTENSIONS.has(extname(absolute).toLowerCase()) ? "image" : "file";
  const accepted = surfaceOf(driver).capabilities?.attachments ?? [];
  if (!accepted.includes(type)) return `${driver.provider} takes no ${type} attachments`;
  return { type, path: absolute };
}

/** `/model NAME` and `/mode NAME`: the change sent to the agent, or why it cannot be. */
export async function configure(
  driver: RuntimeDriver,
  key: "model" | "mode",
  value: string,
): Promise<string> {
  if (value.length === 0) return `usage: /${key} NAME`;
  const surface = surfaceOf(driver);
  const allowed = key === "model" ? surface.capabilities?.setModel : surface.capabilities?.setMode;
  if (typeof surface.configure !== "function" || allowed === false)
    return `${driver.provider} cannot change its ${key} from here`;
  try {
    await surface.configure.call(driver, { [key]: value });
    return `${key}: ${value}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A turn's input with its attachments (the §11 field), when there are any. */
export function turnInput(text: string, attachments: readonly PathAttachment[]): TurnInput {
  return (attachments.length === 0 ? { text } : { text, attachments: [...attachments] }) as TurnInput;
}
