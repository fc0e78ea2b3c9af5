import { describe, expect, it } from "vitest";
import { RuntimeEventSchema } from "../../src/contracts/events.js";
import { BaseMapper, type MessageEntry } from "../../src/kit/base-mapper.js";
import { BoundedMap } from "../../src/kit/bounded-map.js";
import { raw } from "../../src/kit/event-builder.js";
import { IdTable } from "../../src/kit/id-table.js";
import { mintId } from "../../src/kit/ids.js";
import { parseTranscriptLine } from "../../src/kit/transcript.js";

describe("canonical ids", () => {
  it("are the same for the same session, kind and native key, and differ otherwise", () => {
    expect(mintId("s1", "item", "call_1")).toBe(mintId("s1", "item", "call_1"));
    expect(mintId("s1", "item", "call_1")).not.toBe(mintId("s2", "item", "call_1"));
    expect(mintId("s1", "item", "call_1")).not.toBe(mintId("s1", "request", "call_1"));
    expect(mintId("s1", "item", "call_1")).not.toContain("call_1");
  });

  it("do not collide across many keys", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 200_000; i++) ids.add(mintId("s", "item", `key-${i}`));
    expect(ids.size).toBe(200_000);
  });
});

describe("correlation tables", () => {
  it("stay under their cap across a million items opened and closed", () => {
    const table = new IdTable<{ n: number }>("s", "item", 1_000);
    let maxSize = 0;
    for (let i = 0; i < 1_000_000; i++) {
      table.open(`k${i}`, { n: i });
      // every item ends except one in ten, which a provider never closes: the cap must hold anyway
      if (i % 10 !== 0) table.close(`k${i}`);
      maxSize = Math.max(maxSize, table.size);
    }
    expect(maxSize).toBeLessThanOrEqual(1_000);
    expect(table.size).toBeLessThanOrEqual(1_000);
  });

  it("de-duplicate opens and release on close", () => {
    const table = new IdTable<string>("s", "item");
    const first = table.open("a", "x");
    const second = table.open("a", "y");
    expect(first.isNew).toBe(true);
    expect(second.isNew).toBe(false);
    expect(second.entry.id).toBe(first.entry.id);
    expect(table.close("a")?.state).toBe("x");
    expect(table.isOpen("a")).toBe(false);
  });

  it("BoundedMap evicts the oldest entry past its cap", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    map.set("c", 3);
    expect([...map.entries()].map(([k]) => k)).toEqual(["b", "c"]);
    expect(map.evicted).toBe(1);
  });
});

describe("transcript lines", () => {
  it("read our format, the probe format, the ms format and bare JSONL", () => {
    expect(parseTranscriptLine('{"t":"2026-01-01T00:00:00Z","dir":"out","msg":{"id":1}}')).toEqual({
      kind: "message",
      dir: "out",
      msg: { id: 1 },
      t: "2026-01-01T00:00:00Z",
    });
    expect(parseTranscriptLine('{"ts":"x","channel":"server->client","message":{"a":1}}', 3)).toMatchObject({
      kind: "message",
      dir: "in",
      line: 3,
    });
    expect(parseTranscriptLine('{"ms":5,"dir":"client->agent","msg":{"a":1}}')).toMatchObject({ dir: "out" });
    expect(parseTranscriptLine('{"ts":"x","channel":"lifecycle","message":{"a":1}}')).toMatchObject({
      kind: "skipped",
    });
    expect(parseTranscriptLine('{"ts":"x","channel":"scenario-result","ok":true}')).toMatchObject({
      kind: "skipped",
    });
    expect(parseTranscriptLine('{"ts":"x","channel":"server->client"}')).toMatchObject({ kind: "malformed" });
    expect(parseTranscriptLine('{"method":"x"}')).toEqual({
      kind: "message",
      dir: "in",
      msg: { method: "x" },
    });
    expect(parseTranscriptLine("   ")).toBeUndefined();
    expect(parseTranscriptLine("{not json", 9)).toMatchObject({ kind: "malformed", line: 9 });
    expect(parseTranscriptLine("[1,2]")).toMatchObject({ kind: "malformed" });
  });
});

class EchoMapper extends BaseMapper {
  constructor() {
    super("acp", "acp", { sessionId: "s" });
  }
  protected rawOf(entry: MessageEntry) {
    return raw("acp.notification", entry.msg);
  }
  protected mapMessage(entry: MessageEntry) {
    const msg = entry.msg as { boom?: boolean; turn?: string };
    if (msg.boom) throw new Error("unforeseen shape");
    return [this.builder.emit("turn.started", {}, { turnId: msg.turn, raw: this.rawOf(entry) })];
  }
}

describe("BaseMapper", () => {
  it("turns a throwing handler and a malformed line into warnings, with sequence intact", () => {
    const mapper = new EchoMapper();
    const events = [
      ...mapper.map({ kind: "message", dir: "in", msg: { boom: true } }),
      ...mapper.map({ kind: "malformed", text: "{x", reason: "bad" }),
      ...mapper.map({ kind: "message", dir: "in", msg: { turn: "t1" }, t: "2026-01-01T00:00:00.000Z" }),
    ];
    expect(events.map((e) => e.type)).toEqual([
      "runtime.warning",
      "runtime.warning",
      "turn.started",
      "session.state.changed",
    ]);
    expect(events.map((e) => e.sequence)).toEqual([1, 2, 3, 4]);
    expect(events[0]?.raw?.payload).toEqual({ boom: true });
    expect(events[2]?.createdAt).toBe("2026-01-01T00:00:00.000Z");
    for (const event of events) expect(RuntimeEventSchema.safeParse(event).success).toBe(true);
  });

  it("terminate closes the open turn and ends the session once", () => {
    const mapper = new EchoMapper();
    mapper.map({ kind: "message", dir: "in", msg: { turn: "t1" } });
    const closing = mapper.terminate({ kind: "crash", message: "process exited with code 1" });
    expect(closing.map((e) => e.type)).toEqual([
      "runtime.error",
      "turn.completed",
      "session.state.changed",
      "session.exited",
    ]);
    expect(closing[1]?.payload).toMatchObject({ state: "failed" });
    expect(closing[2]?.payload).toEqual({ state: "error" });
    expect(closing[3]?.payload).toMatchObject({ exitKind: "error" });
    expect(mapper.terminate({ kind: "stop", message: "again" })).toEqual([]);
  });
});

describe("transcript timestamps", () => {
  it("take epoch milliseconds and ignore ones no date can hold", () => {
    expect(parseTranscriptLine('{"t":0,"dir":"in","msg":{}}')).toMatchObject({
      t: "1970-01-01T00:00:00.000Z",
    });
    expect(parseTranscriptLine('{"t":1e308,"dir":"in","msg":{}}')).toEqual({
      kind: "message",
      dir: "in",
      msg: {},
    });
  });
});
