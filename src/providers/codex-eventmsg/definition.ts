import type { CoverageKind, MapperDefinition, SourceCoverage } from "../../kit/mapper.js";
import { CodexEventMsgMapper } from "./eventmsg-mapper.js";
import { eventMsgCoverage } from "./eventmsg-table.js";
import { EVENTMSG_SURFACE_VERSION } from "./eventmsg-types.js";
import { RESPONSE_ITEM_TYPES, ROLLOUT_LINE_TABLE } from "./rollout-lines.js";
import { CodexRolloutMapper } from "./rollout-mapper.js";

/** The pinned `@openai/codex`, whose rollout files this reads. */
export const CODEX_ROLLOUT_VERSION = "0.171.0";

/** `--from codex-eventmsg`: legacy `codex/event/*` notifications and bare EventMsg objects (§3.3). */
export const codexEventMsgDefinition: MapperDefinition = {
  source: "codex-eventmsg",
  provider: "codex",
  create: (options) => new CodexEventMsgMapper(options),
  coverage: (): SourceCoverage => {
    const kinds = eventMsgCoverage();
    return {
      package: "@openai/codex",
      version: EVENTMSG_SURFACE_VERSION,
      kinds,
      unhandled: kinds.filter((row) => row.yields.length === 0).map((row) => row.kind),
    };
  },
};

/** `--from codex-rollout`: Codex session files; `event_msg` lines go through the EventMsg table. */
export const codexRolloutDefinition: MapperDefinition = {
  source: "codex-rollout",
  provider: "codex",
  create: (options) => new CodexRolloutMapper(options),
  coverage: (): SourceCoverage => {
    const lines: CoverageKind[] = Object.entries(ROLLOUT_LINE_TABLE).map(([kind, handler]) => ({
      group: "line",
      kind,
      yields: [...handler.yields],
      ...(handler.note === undefined ? {} : { note: handler.note }),
    }));
    const responseItems: CoverageKind[] = RESPONSE_ITEM_TYPES.map((kind) => ({
      group: "response_item",
      kind,
      yields: responseItemYields(kind),
    }));
    const kinds = [...lines, ...responseItems, ...eventMsgCoverage()];
    const unhandled = kinds.filter((row) => row.yields.length === 0 && row.kind !== "event_msg");
    return {
      package: "@openai/codex",
      version: CODEX_ROLLOUT_VERSION,
      kinds,
      unhandled: unhandled.map((r) => r.kind),
    };
  },
};

function responseItemYields(kind: string): CoverageKind["yields"] {
  if (kind.endsWith("_output")) return ["item.completed", "content.delta", "provider.event"];
  if (kind.endsWith("_call") && kind !== "web_search_call")
    return ["item.started", "item.updated", "provider.event"];
  return ["provider.event"];
}
