import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface ServerToken {
  token: string;
  /** Given by `--token-file`, `PROVIDER_RUNTIME_TOKEN` or `--token` (not generated). */
  explicit: boolean;
  /** Where a generated token is kept. */
  file?: string;
}

export const TOKEN_FILE = "token";
/** The shortest explicit token a server reachable from other machines accepts (the generated one has 64). */
export const MIN_REMOTE_TOKEN_CHARS = 32;

/** Where an explicit token may come from, most preferred first; `flag` is the deprecated `--token T`. */
export interface TokenSources {
  file?: string | undefined;
  env?: string | undefined;
  flag?: string | undefined;
}

/** A token source that cannot be used (an unreadable or empty file, two flags at once): a usage error. */
export class TokenSourceError extends Error {
  override name = "TokenSourceError";
}

/**
 * The explicit token, read before anything is written: `--token-file FILE` (its first line, trimmed), else
 * `PROVIDER_RUNTIME_TOKEN`, else the deprecated `--token T` (which every local user can read in the process
 * list); undefined when none is given. `warn` hears about the deprecated flag and a file others can read.
 */
export async function explicitToken(
  sources: TokenSources,
  warn: (message: string) => void,
): Promise<string | undefined> {
  if (sources.file !== undefined && sources.flag !== undefined)
    throw new TokenSourceError("--token-file and --token exclude each other (--token is deprecated)");
  if (sources.file !== undefined) {
    let text: string;
    try {
      text = await readFile(sources.file, "utf8");
      if (((await stat(sources.file)).mode & 0o077) !== 0)
        warn(`${sources.file} can be read by other users: chmod 600 it`);
    } catch (error) {
      throw new TokenSourceError(
        `--token-file ${sources.file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
    const token = text.split("\n")[0]?.trim() ?? "";
    if (token === "") throw new TokenSourceError(`--token-file ${sources.file} is empty`);
    return token;
  }
  if (sources.env !== undefined && sources.env !== "") return sources.env;
  if (sources.flag !== undefined && sources.flag !== "") {
    warn(
      "--token is deprecated: every local user can read it in the process list; use --token-file FILE or PROVIDER_RUNTIME_TOKEN",
    );
    return sources.flag;
  }
  return undefined;
}

/**
 * The bearer token: the explicit one (see explicitToken), else the one in `DATA/token`, generated (32 random bytes,
 * hex) and written 0600 at the first start.
 */
export async function resolveServerToken(
  explicit: string | undefined,
  dataDir: string,
): Promise<ServerToken> {
  if (explicit !== undefined) return { token: explicit, explicit: true };
  const file = join(dataDir, TOKEN_FILE);
  const kept = await readFile(file, "utf8").then(
    (text) => text.trim(),
    () => "",
  );
  if (kept !== "") {
    await chmod(file, 0o600);
    return { token: kept, explicit: false, file };
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString("hex");
  await writeFile(file, `${token}\n`, { mode: 0o600, flag: "wx" }).catch(async (error: unknown) => {
    // Another server wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  });
  const stored = (await readFile(file, "utf8")).trim();
  return { token: stored, explicit: false, file };
}

/** Whether a host name or address is this machine only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}
