/**
 * What a session file says by itself, read without the mapper, to check the mapper's output against: its
 * records' times, its assistant text, and the prompts the user typed.
 */
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { sessionFileLines } from "../../src/node/claude-code-session.js";

export interface SessionFacts {
  /** Every time a record names (`timestamp`, a file-history snapshot's `snapshot.timestamp`). */
  times: Set<string>;
  /** The text blocks of every assistant record (subagents' included), in the order read. */
  assistantText: string;
  /** The main chain's prompts: user text that is not a tool result, meta, an interruption or command output. */
  prompts: string[];
}

interface Block {
  type?: unknown;
  text?: unknown;
}

interface LooseRecord {
  type?: unknown;
  timestamp?: unknown;
  snapshot?: { timestamp?: unknown };
  isSidechain?: unknown;
  isMeta?: unknown;
  isCompactSummary?: unknown;
  message?: { content?: string | Block[] };
}

const textOf = (blocks: Block[]) => blocks.map((b) => (typeof b.text === "string" ? b.text : "")).join("");

const NOT_PROMPTS = /^\s*(\[Request interrupted by user|<local-command-|<bash-std|<task-notification>)/;

export async function sessionFacts(path: string): Promise<SessionFacts> {
  const facts: SessionFacts = { times: new Set(), assistantText: "", prompts: [] };
  for await (const line of sessionFileLines(path)) {
    if (typeof line !== "string") continue;
    const record = JSON.parse(line) as LooseRecord;
    if (typeof record.timestamp === "string") facts.times.add(record.timestamp);
    if (typeof record.snapshot?.timestamp === "string") facts.times.add(record.snapshot.timestamp);
    const content = record.message?.content;
    if (record.type === "assistant" && Array.isArray(content))
      facts.assistantText += textOf(content.filter((block) => block?.type === "text"));
    if (record.type !== "user" || record.isSidechain === true || record.isMeta === true) continue;
    if (record.isCompactSummary === true) continue;
    const text =
      typeof content === "string"
        ? content
        : Array.isArray(content) && content.every((b) => b?.type === "text")
          ? textOf(content)
          : undefined;
    if (text !== undefined && !NOT_PROMPTS.test(text)) facts.prompts.push(text);
  }
  return facts;
}

export function parseEvents(lines: readonly string[]): RuntimeEvent[] {
  return lines.map((line) => JSON.parse(line) as RuntimeEvent);
}

export function assistantDeltas(events: readonly RuntimeEvent[], main = false): string {
  return events
    .map((e) =>
      e.type === "content.delta" && e.payload.streamKind === "assistant_text" && !(main && e.parentItemId)
        ? e.payload.delta
        : "",
    )
    .join("");
}

/** Per turn, the completed items as comparable rows (type, status, details, whether a subagent's), sorted. */
export function turnItems(events: readonly RuntimeEvent[]): string[][] {
  const turns: string[][] = [];
  for (const event of events) {
    if (event.type === "turn.started") turns.push([]);
    const turn = turns.at(-1);
    if (turn === undefined) continue;
    if (event.type === "item.completed")
      turn.push(
        JSON.stringify([
          event.payload.itemType,
          event.payload.status,
          event.payload.details ?? null,
          event.parentItemId === undefined ? "main" : "subagent",
        ]),
      );
    if (event.type === "turn.completed") turn.push(`end:${event.payload.state}`);
  }
  return turns.map((turn) => turn.sort());
}

export function warningReasons(events: readonly RuntimeEvent[]): string[] {
  return events.flatMap((e) =>
    e.type === "runtime.warning" ? [String((e.payload.detail as { reason?: unknown })?.reason)] : [],
  );
}
