/**
 * A host that renders a session from `details` alone: messages, commands with their exit code and output, file
 * changes with their diff. It never looks at `data`, `raw` or the provider, so the same code renders every one.
 * In a host the imports are `provider-runtime/projection` and `provider-runtime/contracts`.
 *
 *   npx tsx examples/render-turn.ts events.jsonl
 */
import { readFileSync } from "node:fs";
import type { RuntimeEvent } from "../src/contracts/index.js";
import { type ItemView, projectEvents } from "../src/projection/index.js";

export function renderItem(item: ItemView): string[] {
  switch (item.itemType) {
    case "user_message":
      return [`> ${item.text || item.details?.text || ""}`];
    case "assistant_message":
      return [item.text || item.details?.text || ""];
    case "command_execution": {
      const details = item.details;
      const lines = [`$ ${details?.command ?? item.title ?? ""}`];
      if (item.output.length > 0)
        lines.push(
          ...item.output
            .trimEnd()
            .split("\n")
            .map((line) => `  ${line}`),
        );
      if (details?.exitCode !== undefined) lines.push(`  (exit ${details.exitCode})`);
      return lines;
    }
    case "file_change":
      return (item.details?.changes ?? []).flatMap((change) => [
        `${change.kind} ${change.path.split("/").at(-1)}`,
        ...(change.diff
          ?.trimEnd()
          .split("\n")
          .filter((line) => /^[+-](?![+-]{2})/.test(line)) ?? []),
      ]);
    default:
      return [];
  }
}

/** The whole session: one block per turn. */
export function renderSession(events: RuntimeEvent[]): string {
  const view = projectEvents(events);
  const items = new Map(view.items.map((item) => [item.itemId, item]));
  return view.turns
    .map((turn, index) => {
      const lines = turn.itemIds.flatMap((id) => {
        const item = items.get(id);
        return item === undefined ? [] : renderItem(item);
      });
      return [`# turn ${index + 1} (${turn.state})`, ...lines].join("\n");
    })
    .join("\n\n");
}

if (process.argv[1]?.endsWith("render-turn.ts") && process.argv[2] !== undefined) {
  const events = readFileSync(process.argv[2], "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as RuntimeEvent);
  process.stdout.write(`${renderSession(events)}\n`);
}
