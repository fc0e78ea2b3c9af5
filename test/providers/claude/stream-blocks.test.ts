/**
 * Snapshot ↔ stream reconciliation, on real records rearranged the ways other SDK versions and faults deliver
 * them: no text may be duplicated, lost or truncated, whatever the order or the snapshot's shape.
 */
import { describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../../src/kit/transcript.js";
import { assistantItemTexts, fixtureEntries, replay, snapshotTexts } from "./test-helpers.js";

type Msg = Record<string, unknown> & { type?: string; event?: { type?: string; delta?: { type?: string } } };
const msgOf = (entry: TranscriptEntry): Msg => (entry.kind === "message" ? (entry.msg as Msg) : {});
const isSnapshot = (entry: TranscriptEntry) => msgOf(entry).type === "assistant";
const isStream = (entry: TranscriptEntry) => msgOf(entry).type === "stream_event";
const eventType = (entry: TranscriptEntry) => msgOf(entry).event?.type;

function expectTextsShownOnce(entries: TranscriptEntry[], expected: string[]): void {
  const events = replay(entries);
  expect([...assistantItemTexts(events).values()]).toEqual(expected);
  const reasoning = events
    .filter((e) => e.type === "content.delta" && e.payload.streamKind === "reasoning_text")
    .map((e) => (e.type === "content.delta" ? e.payload.delta : ""))
    .join("");
  if (entries.some((e) => JSON.stringify(msgOf(e)).includes('"thinking"')))
    expect(reasoning).toBe("Thinking about the mock request.");
}

describe("stream block reconciliation", () => {
  const reasoning = fixtureEntries("reasoning");
  const expected = snapshotTexts(reasoning);

  it("emits the missing tail when the stream lost its last text delta", () => {
    const lastText = reasoning.findLastIndex((e) => msgOf(e).event?.delta?.type === "text_delta");
    const truncated = reasoning.filter((_, i) => i !== lastText);
    expectTextsShownOnce(truncated, expected);
  });

  it("does not duplicate when snapshots arrive after the block stops and the message ends", () => {
    const snapshots = reasoning.filter(isSnapshot);
    const rest = reasoning.filter((e) => !isSnapshot(e));
    const stop = rest.findIndex((e) => eventType(e) === "message_stop");
    expectTextsShownOnce([...rest.slice(0, stop + 1), ...snapshots, ...rest.slice(stop + 1)], expected);
  });

  it("matches one snapshot holding every block, in any order, by identity rather than position", () => {
    const snapshots = reasoning.filter(isSnapshot).map(msgOf);
    const blocks = snapshots.flatMap(
      (s) => ((s.message as { content: unknown[] }).content ?? []) as unknown[],
    );
    const merged = {
      ...snapshots[1],
      message: { ...(snapshots[1]?.message as object), content: [...blocks].reverse() },
    };
    const rest = reasoning.filter((e) => !isSnapshot(e));
    const stop = rest.findIndex((e) => eventType(e) === "message_stop");
    const entries: TranscriptEntry[] = [
      ...rest.slice(0, stop),
      { kind: "message", dir: "in", msg: merged },
      ...rest.slice(stop),
    ];
    expectTextsShownOnce(entries, expected);
  });

  it("makes whole items from snapshots when nothing was streamed", () => {
    expectTextsShownOnce(
      reasoning.filter((e) => !isStream(e)),
      expected,
    );
    const subagent = fixtureEntries("subagent").filter((e) => !isStream(e));
    expectTextsShownOnce(subagent, snapshotTexts(subagent));
  });

  it("completes a block whose snapshot never came, with what was streamed", () => {
    const noSnapshots = reasoning.filter((e) => !isSnapshot(e));
    const events = replay(noSnapshots);
    expect([...assistantItemTexts(events).values()]).toEqual(expected);
    const completed = events.filter(
      (e) => e.type === "item.completed" && e.payload.itemType === "assistant_message",
    );
    expect(completed).toHaveLength(1);
  });

  it("keeps blocks of a subagent and the main thread apart (scope = parent_tool_use_id)", () => {
    const main = reasoning.filter(isStream);
    const sub = main.map((e) =>
      e.kind === "message" ? { ...e, msg: { ...msgOf(e), parent_tool_use_id: "toolu_x" } } : e,
    );
    const interleaved = main.flatMap((e, i) => [e, sub[i] as TranscriptEntry]);
    const events = replay(interleaved);
    const texts = [...assistantItemTexts(events).values()];
    expect(texts).toEqual([expected[0], expected[0]]);
  });
});
