import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { DriverProvider } from "../contracts/driver.js";

/** The agent's home inside a session's state dir: Codex's CODEX_HOME, Claude Code's config dir. */
export const CODEX_HOME_DIR = "codex-home";
export const CLAUDE_CONFIG_DIR = "claude-config";

/**
 * The environment that puts an agent's native state (Codex's CODEX_HOME, Claude Code's config dir) in the
 * session's own dir under DATA, where a later resume finds the thread. Only against a model server of ours (the
 * mock): against the real APIs the agent keeps the user's own config home, where its login and threads are.
 * ACP agents get theirs from `acpLaunch`.
 */
export async function nativeStateEnv(
  provider: DriverProvider,
  stateDir: string,
): Promise<Record<string, string>> {
  switch (provider) {
    case "codex":
    case "codex-sdk": {
      // made here: codex exec (codex-sdk) refuses a CODEX_HOME that does not exist yet
      const dir = join(stateDir, CODEX_HOME_DIR);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      return { CODEX_HOME: dir };
    }
    case "claude": {
      const dir = join(stateDir, CLAUDE_CONFIG_DIR);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      return { CLAUDE_CONFIG_DIR: dir };
    }
    default:
      return {};
  }
}
