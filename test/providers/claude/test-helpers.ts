/** Shared by the Claude tests: fixture replay and independent facts read off the native records. Node-only. */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { isObject } from "../../../src/kit/guards.js";
import { parseTranscriptLine, type TranscriptEntry } from "../../../src/kit/transcript.js";
import { claudeSdkDefinition } from "../../../src/providers/claude/definition.js";

export const FIXTURE_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  "test",
  "fixtures",
  "claude",
);

export function fixtureNames(): string[] {
  return readdirSync(FIXTURE_DIR)
    .filter((name) => name.endsWith(".jsonl") && !name.endsWith(".expected.jsonl"))
    .map((name) => name.slice(0, -".jsonl".length))
    .sort();
}

export function readEntries(text: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  text.split("\n").forEach((line, index) => {
    const entry = parseTranscriptLine(line, index + 1);
    if (entry !== undefined) entries.push(entry);
  });
  return entries;
}

export function fixtureEntries(name: string): TranscriptEntry[] {
  return readEntries(readFileSync(join(FIXTURE_DIR, `${name}.jsonl`), "utf8"));
}

export function replay(entries: TranscriptEntry[], sessionId = "claude-fixture"): RuntimeEvent[] {
  const mapper = claudeSdkDefinition.create({ sessionId });
  return [...entries.flatMap((entry) => mapper.map(entry)), ...mapper.finish()];
}

export function inboundMessages(entries: TranscriptEntry[]): Record<string, unknown>[] {
  return entries.flatMap((entry) =>
    entry.kind === "message" && entry.dir === "in" && isObject(entry.msg) ? [entry.msg] : [],
  );
}

/** The text of every text block of every `assistant` snapshot, in order: what the user must end up seeing. */
export function snapshotTexts(entries: TranscriptEntry[]): string[] {
  const texts: string[] = [];
  for (const msg of inboundMessages(entries)) {
    if (msg.type !== "assistant" || !isObject(msg.message) || !Array.isArray(msg.message.content)) continue;
    for (const block of msg.message.content)
      if (isObject(block) && block.type === "text" && typeof block.text === "string") texts.push(block.text);
  }
  return texts;
}

/** Every distinct tool_use id the native records announce (streamed starts and snapshot blocks). */
export function nativeToolUseIds(entries: TranscriptEntry[]): Set<string> {
  const ids = new Set<string>();
  const add = (block: unknown) => {
    if (
      isObject(block) &&
      ["tool_use", "server_tool_use", "mcp_tool_use"].includes(String(block.type)) &&
      typeof block.id === "string"
    )
      ids.add(block.id);
  };
  for (const msg of inboundMessages(entries)) {
    if (msg.type === "stream_event" && isObject(msg.event)) add(msg.event.content_block);
    if (msg.type === "assistant" && isObject(msg.message) && Array.isArray(msg.message.content))
      msg.message.content.forEach(add);
  }
  return ids;
}

/** Concatenated assistant_text deltas per assistant_message item, in item start order. */
export function assistantItemTexts(events: RuntimeEvent[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const event of events) {
    if (event.type === "item.started" && event.payload.itemType === "assistant_message" && event.itemId)
      texts.set(event.itemId, "");
    if (event.type === "content.delta" && event.payload.streamKind === "assistant_text" && event.itemId)
      texts.set(event.itemId, (texts.get(event.itemId) ?? "") + event.payload.delta);
  }
  return texts;
}

export function toJsonl(events: RuntimeEvent[]): string {
  return events.map((event) => JSON.stringify(event)).join("\n") + (events.length > 0 ? "\n" : "");
}
