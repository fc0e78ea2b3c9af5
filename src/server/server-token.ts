import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface ServerToken {
  token: string;
  /** Given by `--token` or `PROVIDER_RUNTIME_TOKEN` (not generated): only then may the server leave loopback. */
  explicit: boolean;
  /** Where a generated token is kept. */
  file?: string;
}

export const TOKEN_FILE = "token";

/** Whether `--token` or `PROVIDER_RUNTIME_TOKEN` gives the token, known before anything is read or written. */
export function tokenIsExplicit(flag: string | undefined, env: string | undefined): boolean {
  return (flag !== undefined && flag !== "") || (env !== undefined && env !== "");
}

/**
 * The bearer token: `--token`, else `PROVIDER_RUNTIME_TOKEN`, else the one in `DATA/token`, generated (32 random
 * bytes, hex) and written 0600 at the first start.
 */
export async function resolveServerToken(
  flag: string | undefined,
  env: string | undefined,
  dataDir: string,
): Promise<ServerToken> {
  if (flag !== undefined && flag !== "") return { token: flag, explicit: true };
  if (env !== undefined && env !== "") return { token: env, explicit: true };
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
