import type { CoverageKind, MapperDefinition, SourceCoverage } from "../../kit/mapper.js";
import { ClaudeSdkMapper } from "./claude-mapper.js";
import { CLAUDE_IN_KINDS, CLAUDE_OUT_KINDS } from "./message-table.js";
import { CLAUDE_SDK_PACKAGE, CLAUDE_SDK_VERSION } from "./records.js";

/** The `claude-sdk` source: Claude Agent SDK messages (`query()` output) and the driver's permission records. */
export const claudeSdkDefinition: MapperDefinition = {
  source: "claude-sdk",
  provider: "claude",
  create: (options) => new ClaudeSdkMapper(options),
  coverage: claudeSdkCoverage,
};

/**
 * One row per registry entry; `out` host records are listed under group `host` with an `out:` prefix. The bare
 * `system` and `result` types get a row too (every subtype has its own row; an unknown one still maps).
 */
export function claudeSdkCoverage(): SourceCoverage {
  const kinds: CoverageKind[] = [typeRow("system"), typeRow("result")];
  for (const [kind, row] of Object.entries(CLAUDE_IN_KINDS)) kinds.push(coverageRow(kind, row));
  for (const [kind, row] of Object.entries(CLAUDE_OUT_KINDS)) kinds.push(coverageRow(`out:${kind}`, row));
  return { package: CLAUDE_SDK_PACKAGE, version: CLAUDE_SDK_VERSION, kinds, unhandled: [] };
}

function typeRow(type: "system" | "result"): CoverageKind {
  const yields = new Set<CoverageKind["yields"][number]>(["runtime.warning", "provider.event"]);
  for (const [kind, row] of Object.entries(CLAUDE_IN_KINDS))
    if (kind.startsWith(`${type}:`)) for (const y of row.yields) yields.add(y);
  const unknown =
    type === "result" ? "runtime.warning, and the turn still completes" : "runtime.warning once per subtype";
  return {
    group: "message",
    kind: type,
    yields: [...yields],
    note: `dispatched by subtype (rows ${type}:*); an unknown subtype → ${unknown}`,
  };
}

function coverageRow(
  kind: string,
  row: { group: string; yields: CoverageKind["yields"]; note?: string },
): CoverageKind {
  const base: CoverageKind = { group: row.group, kind, yields: [...new Set(row.yields)] };
  return row.note === undefined ? base : { ...base, note: row.note };
}
