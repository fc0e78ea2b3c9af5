import { realpath } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { isDriverProvider } from "../drivers/index.js";
import { isInside, type SessionPaths } from "../server/session-paths.js";
import type { SessionRecord } from "../store/types.js";

const MAX_AGENT_WORDS = 64;
const MAX_AGENT_WORD = 4_096;

/**
 * Why this node refuses to run a session's agent as its record says, or undefined when it may. A record comes from
 * the shared registry, written by another node (or, were the secret stolen, by anyone): before it starts anything
 * a node checks it against its own rules, as if the session were created here — a provider it runs, an agent
 * command line only for the ACP providers and of a sane shape, a cwd inside its own `--root`.
 */
export async function refusalOf(record: SessionRecord, paths: SessionPaths): Promise<string | undefined> {
  if (!isDriverProvider(record.provider))
    return `provider ${JSON.stringify(record.provider)} is not one this node runs`;
  const agent = record.agent;
  if (agent !== undefined) {
    if (record.provider !== "acp" && record.provider !== "cursor")
      return `an agent command line is only for the acp and cursor providers, not ${record.provider}`;
    const sane =
      Array.isArray(agent) &&
      agent.length > 0 &&
      agent.length <= MAX_AGENT_WORDS &&
      agent.every(
        (word) =>
          typeof word === "string" &&
          word.length > 0 &&
          word.length <= MAX_AGENT_WORD &&
          !word.includes("\0"),
      );
    if (!sane) return "the agent command line is malformed";
  }
  if (record.cwd === undefined || isDefaultWorkDir(record)) return undefined;
  if (typeof record.cwd !== "string") return "the cwd is malformed";
  let real: string;
  try {
    real = await realpath(record.cwd);
  } catch {
    return `cwd ${record.cwd} does not exist on this node`;
  }
  if (paths.root !== undefined && !isInside(paths.root, real))
    return `cwd ${record.cwd} lies outside this node's --root`;
  return undefined;
}

/**
 * Whether the record's cwd is the default one the creating node made under its own DATA (`DATA/work/<id>`, no
 * `--root`): another node uses its own.
 */
export function isDefaultWorkDir(record: SessionRecord): boolean {
  const cwd = record.cwd;
  return cwd !== undefined && basename(cwd) === record.id && basename(dirname(cwd)) === "work";
}
