import { readFile, stat } from "node:fs/promises";
import { basename, extname, isAbsolute, resolve } from "node:path";
import {
  InvalidCommandError,
  type TurnAttachment,
  type TurnInput,
  UnsupportedError,
} from "../contracts/driver.js";

/** The largest attachment, decoded (DESIGN.md §9: the turns route takes up to this much per attachment). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

export const IMAGE_MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

const MEDIA_BY_EXTENSION: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".json": "application/json",
  ".csv": "text/csv",
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** An attachment checked and read: its bytes as base64 and, where it came from a file, the absolute path. */
export interface ResolvedAttachment {
  type: "image" | "file";
  mediaType: string;
  /** Base64 of the bytes. */
  data: string;
  path?: string;
  name: string;
}

/**
 * Checks every attachment (kind offered by the provider, media type, size ≤ 10 MiB, base64, a readable file)
 * and reads it. A bad one is an `InvalidCommandError` naming `attachments.N…`; a kind the provider cannot take
 * an `UnsupportedError`.
 */
export async function resolveAttachments(
  input: TurnInput,
  options: { provider: string; cwd: string; supported: readonly ("image" | "file")[] },
): Promise<ResolvedAttachment[]> {
  const list = input.attachments ?? [];
  const resolved: ResolvedAttachment[] = [];
  for (const [index, attachment] of list.entries()) {
    const field = `attachments.${index}`;
    if (!options.supported.includes(attachment.type))
      throw new UnsupportedError(
        options.provider,
        `take ${attachment.type} attachments`,
        options.supported.length === 0
          ? "the agent takes no attachments"
          : `the agent takes ${options.supported.join(" and ")} attachments only`,
      );
    resolved.push(await resolveOne(attachment, field, options.cwd));
  }
  return resolved;
}

async function resolveOne(
  attachment: TurnAttachment,
  field: string,
  cwd: string,
): Promise<ResolvedAttachment> {
  if ("data" in attachment) {
    checkMediaType(attachment.type, attachment.mediaType, `${field}.mediaType`);
    if (!BASE64.test(attachment.data) || attachment.data.length % 4 === 1)
      throw new InvalidCommandError(`${field}.data`, "not base64");
    if (decodedLength(attachment.data) > MAX_ATTACHMENT_BYTES)
      throw new InvalidCommandError(`${field}.data`, `larger than ${MAX_ATTACHMENT_BYTES} bytes`);
    return {
      type: attachment.type,
      mediaType: attachment.mediaType,
      data: attachment.data,
      name: attachment.name ?? "attachment",
    };
  }
  const path = isAbsolute(attachment.path) ? attachment.path : resolve(cwd, attachment.path);
  const mediaType =
    attachment.mediaType ?? MEDIA_BY_EXTENSION[extname(path).toLowerCase()] ?? "application/octet-stream";
  checkMediaType(attachment.type, mediaType, `${field}.mediaType`);
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isFile())
    throw new InvalidCommandError(`${field}.path`, `no readable file at ${path}`);
  if (info.size > MAX_ATTACHMENT_BYTES)
    throw new InvalidCommandError(`${field}.path`, `larger than ${MAX_ATTACHMENT_BYTES} bytes`);
  const bytes = await readFile(path);
  return {
    type: attachment.type,
    mediaType,
    data: bytes.toString("base64"),
    path,
    name: attachment.name ?? basename(path),
  };
}

function checkMediaType(type: "image" | "file", mediaType: string, field: string): void {
  if (type === "image" && !(IMAGE_MEDIA_TYPES as readonly string[]).includes(mediaType))
    throw new InvalidCommandError(field, `an image must be one of ${IMAGE_MEDIA_TYPES.join(", ")}`);
  if (!/^[a-z]+\/[a-z0-9.+-]+$/i.test(mediaType)) throw new InvalidCommandError(field, "not a media type");
}

function decodedLength(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}
