import type { CoverageKind, MapperDefinition, SourceCoverage } from "../../kit/mapper.js";
import { CLAUDE_SDK_PACKAGE, CLAUDE_SDK_VERSION } from "../claude/records.js";
import { PROGRESS_TYPES, SYSTEM_SUBTYPES } from "./record-kinds.js";
import { RECORD_KINDS } from "./record-table.js";
import { ClaudeCodeMapper } from "./session-mapper.js";
import { SYSTEM_HANDLERS } from "./system-records.js";

/** `--from claude-code`: Claude Code session files (`~/.claude/projects/<project>/<session>.jsonl`). */
export const claudeCodeDefinition: MapperDefinition = {
  source: "claude-code",
  provider: "claude",
  create: (options) => new ClaudeCodeMapper(options),
  coverage: claudeCodeCoverage,
};

/**
 * Listed under the pinned SDK, whose bundled Claude Code (CLAUDE_CODE_VERSION) wrote the recorded files: a row
 * per record type, then per `system` subtype and `progress` data type (they dispatch further).
 */
export function claudeCodeCoverage(): SourceCoverage {
  const kinds: CoverageKind[] = Object.entries(RECORD_KINDS).map(([kind, row]) => ({
    group: "record",
    kind,
    yields: [...new Set(row.yields)],
    ...(row.note === undefined ? {} : { note: row.note }),
  }));
  for (const subtype of SYSTEM_SUBTYPES) {
    const handled = Object.hasOwn(SYSTEM_HANDLERS, subtype);
    kinds.push({
      group: "system",
      kind: `system:${subtype}`,
      yields: handled ? systemYields(subtype) : ["provider.event"],
    });
  }
  for (const type of PROGRESS_TYPES)
    kinds.push({ group: "progress", kind: `progress:${type}`, yields: progressYields(type) });
  return { package: CLAUDE_SDK_PACKAGE, version: CLAUDE_SDK_VERSION, kinds, unhandled: [] };
}

function systemYields(subtype: string): CoverageKind["yields"] {
  switch (subtype) {
    case "compact_boundary":
    case "microcompact_boundary":
      return ["thread.state.changed"];
    case "stop_hook_summary":
      return ["hook.completed"];
    case "informational":
      return ["runtime.warning", "provider.event"];
    default:
      return ["runtime.warning"];
  }
}

function progressYields(type: string): CoverageKind["yields"] {
  if (type === "hook_progress") return ["hook.started"];
  if (type === "bash_progress" || type === "powershell_progress" || type === "mcp_progress")
    return ["tool.progress"];
  return ["provider.event"];
}
