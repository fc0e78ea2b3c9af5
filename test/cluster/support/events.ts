import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { sampleEvent } from "../../support/sample-events.js";

/**
 * Canonical events of one session, 1..count after `from`: assistant text deltas whose `raw` is a native record
 * with keys in no sorted order, non-ASCII text and a 64-bit-ish number, so a store that reorders or rewrites
 * anything is caught by comparing JSON text.
 */
export function sessionEvents(sessionId: string, count: number, from = 0): RuntimeEvent[] {
  const events: RuntimeEvent[] = [];
  for (let sequence = from + 1; sequence <= from + count; sequence++)
    events.push(sessionEvent(sessionId, sequence));
  return events;
}

export function sessionEvent(
  sessionId: string,
  sequence: number,
  text = `delta ${sequence} — ünïcødé ✓`,
): RuntimeEvent {
  return sampleEvent("content.delta", sequence, {
    sessionId: sessionId as RuntimeEvent["sessionId"],
    eventId: `evt_${sessionId}_${sequence}` as RuntimeEvent["eventId"],
    payload: { streamKind: "assistant_text", delta: text },
    raw: {
      source: "codex.app-server.notification",
      method: "item/agentMessage/delta",
      payload: {
        z: 1,
        method: "item/agentMessage/delta",
        a: { delta: text, n: 9007199254740991 },
        "0": null,
      },
    },
  } as Partial<RuntimeEvent>);
}

export function sequencesOf(events: readonly RuntimeEvent[]): number[] {
  return events.map((event) => event.sequence);
}

export function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let n = from; n <= to; n++) out.push(n);
  return out;
}
