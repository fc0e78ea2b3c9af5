import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { isObject, str } from "../../../src/kit/guards.js";
import { parseTranscriptLine } from "../../../src/kit/transcript.js";

/** What the inbound ThreadEvents of a transcript say, for the semantic checks of the tests. */
export interface NativeFacts {
  inbound: number;
  /** Distinct items per exec run (`run:itemId`), as exec numbers them from item_0 in every run. */
  itemKeys: Set<string>;
  /** Final text per run key of agent_message / reasoning items, output of command_execution items. */
  finalText: Map<string, { type: string; text: string }>;
  nativeIds: Set<string>;
}

export function nativeFacts(transcript: string): NativeFacts {
  const facts: NativeFacts = { inbound: 0, itemKeys: new Set(), finalText: new Map(), nativeIds: new Set() };
  let run = 0;
  for (const line of transcript.split("\n")) {
    const entry = parseTranscriptLine(line);
    if (entry?.kind !== "message" || entry.dir !== "in" || !isObject(entry.msg)) continue;
    facts.inbound++;
    const msg = entry.msg;
    if (msg.type === "thread.started") {
      run++;
      const thread = str(msg.thread_id);
      if (thread !== undefined) facts.nativeIds.add(thread);
    }
    if (!isObject(msg.item)) continue;
    const id = str(msg.item.id);
    const type = str(msg.item.type);
    if (id === undefined || type === undefined) continue;
    const key = `${run}:${id}`;
    facts.itemKeys.add(key);
    facts.nativeIds.add(id);
    const text = type === "command_execution" ? str(msg.item.aggregated_output) : str(msg.item.text);
    if (text !== undefined) facts.finalText.set(key, { type, text });
  }
  return facts;
}

/** Concatenated content.delta text per canonical item id. */
export function deltaTextByItem(events: readonly RuntimeEvent[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const event of events) {
    if (event.type !== "content.delta" || event.itemId === undefined) continue;
    out.set(event.itemId, (out.get(event.itemId) ?? "") + event.payload.delta);
  }
  return out;
}

/** Final item text per canonical item id, read off item.completed data (text or aggregatedOutput). */
export function completedTextByItem(events: readonly RuntimeEvent[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const event of events) {
    if (event.type !== "item.completed" || event.itemId === undefined) continue;
    const data = event.payload.data;
    if (!isObject(data)) continue;
    const text = event.payload.itemType === "command_execution" ? str(data.aggregatedOutput) : str(data.text);
    if (text !== undefined && event.payload.itemType !== "user_message") out.set(event.itemId, text);
  }
  return out;
}

/**
 * State reports that contradict the turn lifecycle: a session state other than ready/stopped/error, or a thread
 * state other than idle, between a turn's end and the next turn; and any native state the kit had to override.
 */
export function stateContradictions(events: readonly RuntimeEvent[]): string[] {
  const out: string[] = [];
  let betweenTurns = false;
  for (const event of events) {
    if (event.type === "turn.started") betweenTurns = false;
    else if (event.type === "turn.completed" || event.type === "turn.aborted") betweenTurns = true;
    else if (event.type === "provider.event" && event.payload.name === "native-state")
      out.push(`${event.eventId}: ${event.payload.summary ?? "native state overridden"}`);
    else if (betweenTurns && event.type === "session.state.changed") {
      if (!["ready", "stopped", "error"].includes(event.payload.state))
        out.push(`${event.eventId}: session ${event.payload.state} after the turn ended`);
    } else if (betweenTurns && event.type === "thread.state.changed" && event.payload.state !== "idle")
      out.push(`${event.eventId}: thread ${event.payload.state} after the turn ended`);
  }
  return out;
}
