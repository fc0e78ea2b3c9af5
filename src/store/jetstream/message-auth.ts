import { createHmac, timingSafeEqual } from "node:crypto";
import { readFile, stat } from "node:fs/promises";

/** What a tag authenticates: one key per kind, so a tag of one kind never passes as another. */
export type AuthPurpose = "event" | "registry" | "command" | "reply";

/** The header an event message's tag travels in. */
export const HEADER_AUTH = "Pr-Auth";
/** Secrets shorter than this are refused: the tag is as strong as the secret. */
export const MIN_SECRET_BYTES = 32;
const TAG_BYTES = 32;

/**
 * The cluster secret (`--cluster-secret-file`) and the HMAC-SHA256 tags made with it (DESIGN.md §10: nothing on the
 * bus is trusted by itself). Every command, event message and registry record carries a tag over what it says and
 * where it goes (its subject or key), so a message copied to another session's subject fails too. Whoever can
 * publish on NATS without the secret can still fill a subject with garbage, but nothing they write is run or
 * served.
 */
export class MessageAuth {
  readonly #keys: Record<AuthPurpose, Buffer>;

  constructor(secret: Uint8Array) {
    if (secret.length < MIN_SECRET_BYTES)
      throw new Error(
        `the cluster secret must be at least ${MIN_SECRET_BYTES} bytes (it has ${secret.length})`,
      );
    const derive = (purpose: AuthPurpose) =>
      createHmac("sha256", secret).update(`provider-runtime cluster ${purpose} v1`).digest();
    this.#keys = {
      event: derive("event"),
      registry: derive("registry"),
      command: derive("command"),
      reply: derive("reply"),
    };
  }

  /** The tag of `parts` (each length-prefixed, so no two different lists hash alike), base64url. */
  tag(purpose: AuthPurpose, parts: readonly (string | Uint8Array)[]): string {
    const hmac = createHmac("sha256", this.#keys[purpose]);
    for (const part of parts) {
      const bytes = typeof part === "string" ? Buffer.from(part, "utf8") : part;
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      hmac.update(length).update(bytes);
    }
    return hmac.digest("base64url");
  }

  /** Whether `tag` is the tag of `parts` (in constant time). */
  check(purpose: AuthPurpose, parts: readonly (string | Uint8Array)[], tag: string | undefined): boolean {
    if (tag === undefined || tag.length === 0) return false;
    const given = Buffer.from(tag, "base64url");
    if (given.length !== TAG_BYTES) return false;
    return timingSafeEqual(given, Buffer.from(this.tag(purpose, parts), "base64url"));
  }
}

/**
 * Reads `--cluster-secret-file`: its bytes, a trailing line break dropped (a file written with `echo`). A file
 * others may read is refused: the secret is what lets a NATS user run agents.
 */
export async function readClusterSecret(file: string): Promise<MessageAuth> {
  let mode: number;
  let bytes: Buffer;
  try {
    mode = (await stat(file)).mode;
    bytes = await readFile(file);
  } catch (error) {
    throw new Error(`--cluster-secret-file ${file}: ${(error as Error).message}`);
  }
  if (process.platform !== "win32" && (mode & 0o077) !== 0)
    throw new Error(`--cluster-secret-file ${file}: others may read it; chmod 600 it`);
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] === 0x0a || bytes[end - 1] === 0x0d)) end--;
  try {
    return new MessageAuth(bytes.subarray(0, end));
  } catch (error) {
    throw new Error(`--cluster-secret-file ${file}: ${(error as Error).message}`);
  }
}
