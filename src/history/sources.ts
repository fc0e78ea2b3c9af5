import { homedir } from "node:os";
import { join } from "node:path";
import type { MapperDefinition } from "../kit/mapper.js";
import { findMapperDefinition } from "../mappers/registry.js";

/** The local agent histories `import` reads. */
export const HISTORY_SOURCES = ["claude-code", "codex-rollout"] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

export function isHistorySource(name: string): name is HistorySource {
  return (HISTORY_SOURCES as readonly string[]).includes(name);
}

/** Where each source keeps its sessions by default: `~/.claude/projects`, `$CODEX_HOME/sessions`. */
export function defaultRoots(env: NodeJS.ProcessEnv = process.env): Record<HistorySource, string> {
  const home = env.HOME ?? homedir();
  const codexHome =
    env.CODEX_HOME !== undefined && env.CODEX_HOME !== "" ? env.CODEX_HOME : join(home, ".codex");
  return { "claude-code": join(home, ".claude", "projects"), "codex-rollout": join(codexHome, "sessions") };
}

/** Which files under a source's tree are sessions: Codex names its `rollout-*.jsonl`, Claude Code any `*.jsonl`. */
export function isSessionFileName(source: HistorySource, name: string): boolean {
  if (!name.endsWith(".jsonl")) return false;
  return source === "codex-rollout" ? name.startsWith("rollout-") : true;
}

const ROLLOUT_LINE_TYPES = new Set([
  "session_meta",
  "response_item",
  "event_msg",
  "turn_context",
  "compacted",
]);
const CLAUDE_CODE_BARE_TYPES = new Set(["summary", "file-history-snapshot", "queue-operation"]);

/**
 * Whether a file's first record looks like the source's format: a rollout line is `{timestamp, type, payload}`
 * with a rollout type; a Claude Code record has a `type` and its `uuid`/`sessionId` (or is one of the kinds
 * written without them). It decides which source a file belongs to when none is given, and refuses a file of
 * another format, which would otherwise import as a session of nothing but warnings.
 */
export function looksLike(source: HistorySource, first: unknown): boolean {
  if (typeof first !== "object" || first === null || Array.isArray(first)) return false;
  const record = first as Record<string, unknown>;
  if (typeof record.type !== "string") return false;
  if (source === "codex-rollout")
    return typeof record.timestamp === "string" && ROLLOUT_LINE_TYPES.has(record.type) && "payload" in record;
  return (
    typeof record.uuid === "string" ||
    typeof record.sessionId === "string" ||
    CLAUDE_CODE_BARE_TYPES.has(record.type)
  );
}

/** The source a first record belongs to, if any. */
export function sniffSource(first: unknown): HistorySource | undefined {
  return HISTORY_SOURCES.find((source) => looksLike(source, first));
}

/**
 * The mapper of a source. `claude-code` is its own source (branch `claude-code`); a build without it says so
 * instead of importing Claude Code files with the SDK mapper, which does not know their format.
 */
export function historyMapper(source: HistorySource): MapperDefinition {
  const definition = findMapperDefinition(source);
  if (definition === undefined)
    throw new MissingSourceError(
      `this build of provider-runtime has no "${source}" mapper (normalize --from ${source}); its files cannot be imported yet`,
    );
  return definition;
}

export class MissingSourceError extends Error {}
