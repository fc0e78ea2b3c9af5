import type { CoverageKind, MapperDefinition, SourceCoverage } from "../../kit/mapper.js";
import { CODEX_SDK_EVENT_KINDS, HOST_RECORD_KINDS } from "./event-kinds.js";
import { CODEX_SDK_ITEM_KINDS } from "./item-kinds.js";
import { CodexSdkMapper } from "./mapper.js";
import { CODEX_SDK_PACKAGE, CODEX_SDK_VERSION } from "./records.js";

/** The `codex-sdk` source: `@openai/codex-sdk` ThreadEvents (the JSONL of `codex exec --experimental-json`). */
export const codexSdkDefinition: MapperDefinition = {
  source: "codex-sdk",
  provider: "codex",
  create: (options) => new CodexSdkMapper(options),
  coverage: codexSdkCoverage,
};

/** Rows straight from the handler tables: `event` = ThreadEvent types, `item` = ThreadItem types. */
export function codexSdkCoverage(): SourceCoverage {
  const kinds: CoverageKind[] = [];
  for (const [kind, row] of Object.entries(CODEX_SDK_EVENT_KINDS)) {
    kinds.push(withNote({ group: "event", kind, yields: row.yields }, row.note));
  }
  for (const [kind, row] of Object.entries(CODEX_SDK_ITEM_KINDS)) {
    const yields: CoverageKind["yields"] = ["item.started", "item.updated", "item.completed"];
    if (row.stream !== undefined) yields.push("content.delta");
    yields.push(...(row.extraYields ?? []));
    const stream = row.stream === undefined ? "" : `; its growth → content.delta (${row.stream.kind})`;
    kinds.push({ group: "item", kind, yields, note: `itemType ${row.itemType}${stream}` });
  }
  for (const [kind, row] of Object.entries(HOST_RECORD_KINDS)) {
    kinds.push(withNote({ group: "host", kind, yields: row.yields }, row.note));
  }
  return { package: CODEX_SDK_PACKAGE, version: CODEX_SDK_VERSION, kinds, unhandled: [] };
}

function withNote(row: CoverageKind, note: string | undefined): CoverageKind {
  return note === undefined ? row : { ...row, note };
}
