import type { ItemLifecyclePayload } from "../contracts/item-details.js";

/** One line about an item, from its typed details alone (never `data`); the title where it has none. */
export function itemSummary(payload: ItemLifecyclePayload): string | undefined {
  switch (payload.itemType) {
    case "command_execution": {
      const d = payload.details;
      if (d === undefined) return payload.title;
      const exit = d.exitCode === undefined ? "" : ` → exit ${d.exitCode}`;
      const took = d.durationMs === undefined ? "" : ` (${Math.round(d.durationMs)} ms)`;
      return `$ ${d.command}${exit}${took}`;
    }
    case "file_change": {
      const changes = payload.details?.changes;
      if (changes === undefined) return payload.title;
      return changes
        .map((c) => `${c.kind} ${c.path}${c.movePath === undefined ? "" : ` → ${c.movePath}`}`)
        .join(", ");
    }
    case "mcp_tool_call": {
      const d = payload.details;
      if (d === undefined) return payload.title;
      return `${d.server}/${d.tool}${d.error === undefined ? "" : ` ✗ ${d.error}`}`;
    }
    case "dynamic_tool_call": {
      const d = payload.details;
      if (d === undefined) return payload.title;
      const kind = d.kind === undefined ? "" : ` [${d.kind}]`;
      const paths = d.paths === undefined ? "" : ` ${d.paths.join(", ")}`;
      return `${d.tool}${kind}${paths}${d.error === undefined ? "" : ` ✗ ${d.error}`}`;
    }
    case "web_search":
      return payload.details?.query ?? payload.details?.url ?? payload.title;
    case "collab_agent_tool_call": {
      const d = payload.details;
      const parts = [d?.agentType, d?.description].filter((part) => part !== undefined);
      return parts.length > 0 ? parts.join(": ") : payload.title;
    }
    default:
      return payload.title;
  }
}

/** The unified diffs of a completed file change, for printing under it. */
export function itemDiffs(payload: ItemLifecyclePayload): string[] {
  if (payload.itemType !== "file_change") return [];
  return (payload.details?.changes ?? []).flatMap((change) =>
    change.diff === undefined ? [] : [change.diff],
  );
}
