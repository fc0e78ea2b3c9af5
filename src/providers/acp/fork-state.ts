import { rm } from "node:fs/promises";
import { sep } from "node:path";
import { copyNativeHome } from "../../drivers/fork-options.js";
import { makePrivateDir } from "../../drivers/temp-dirs.js";
import { OWNED_STATE_DIR_ENV } from "./agent-commands.js";

/**
 * A fork's launch env when the parent's agent ran in a state dir of its own (`acpAgentCommand` made it, the
 * parent removes it when it ends): a fresh private dir holding a copy of the parent's (where the fork's agent finds
 * the parent's session), and every path of the env that pointed into the parent's dir pointing into the copy.
 * Any other env (a state dir the host chose) is left as it is: the fork's agent shares it.
 */
export async function forkStateEnv(
  env: Record<string, string>,
  parentDir: string | undefined,
): Promise<Record<string, string>> {
  if (parentDir === undefined || env[OWNED_STATE_DIR_ENV] !== parentDir) return env;
  const dir = await makePrivateDir("acp-fork-");
  try {
    await copyNativeHome(parentDir, dir);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const moved: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) moved[name] = rebased(value, parentDir, dir);
  return moved;
}

function rebased(value: string, from: string, to: string): string {
  if (value === from) return to;
  return value.startsWith(from + sep) ? to + value.slice(from.length) : value;
}
