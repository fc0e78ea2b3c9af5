import { homedir } from "node:os";
import { join } from "node:path";

/** `--data` when not given: `~/.provider-runtime` (holds `store.db`, the token, sessions' native state). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.HOME ?? homedir(), ".provider-runtime");
}
