import { describe, expect, it } from "vitest";
import { fixtureLines } from "../../bench/fixture-corpus.js";
import { EventSerializer, serializeEvents } from "../../src/kit/event-serializer.js";
import { LineNormalizer } from "../../src/kit/line-normalizer.js";
import { replayTranscript } from "../../src/kit/replay.js";
import {
  entryFromValue,
  type MessageText,
  readTranscriptLine,
  transcriptLine,
} from "../../src/kit/transcript.js";
import { MAPPER_DEFINITIONS } from "../../src/mappers/registry.js";

describe("EventSerializer", () => {
  // Recorded fixtures are written by JSON.stringify, so splicing their text changes no byte; a hand-written line
  // spelt otherwise is written as read and must parse to the same value.
  for (const definition of MAPPER_DEFINITIONS) {
    it(`${definition.source}: every fixture event serialises as JSON.stringify does, or to the same value`, () => {
      const mapper = definition.create({ sessionId: "serializer" });
      const serializer = new EventSerializer();
      const message: MessageText = { msg: undefined, text: "" };
      let identical = 0;
      let sameValue = 0;
      for (const line of fixtureLines(definition.source)) {
        // with the message's source text at hand, as LineNormalizer does
        const entry = readTranscriptLine(line, undefined, message);
        serializer.source(message.msg, message.text);
        if (entry === undefined) continue;
        const canonical = message.msg === undefined || JSON.stringify(message.msg) === message.text;
        for (const event of mapper.map(entry)) {
          const before = Object.keys(event);
          const written = serializer.serialize(event);
          if (canonical) {
            expect(written).toBe(JSON.stringify(event));
            identical++;
          } else {
            expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(event)));
            sameValue++;
          }
          expect(Object.keys(event)).toEqual(before);
        }
      }
      expect(identical).toBeGreaterThan(sameValue);
    });
  }

  it("takes the plain path for a raw that is not the last key, frozen events and class instances", () => {
    const raw = { source: "acp.session-update", payload: { text: 'a "quoted"\n\u2028 \ud800 line' } };
    const cases: object[] = [
      { eventId: "s:1", raw, type: "x" },
      Object.freeze({ eventId: "s:2", type: "x", raw }),
      new (class {
        eventId = "s:3";
        raw = raw;
      })(),
      { raw },
      { eventId: "s:4", payload: { skipped: undefined, n: Number.NaN }, raw },
      { eventId: "s:5", raw: null },
      { eventId: "s:6", toJSON: () => ({ replaced: true }), raw },
      Object.assign(Object.create({ raw }) as object, { eventId: "s:7" }),
      Object.seal({ eventId: "s:8", type: "x", raw }),
    ];
    const before = cases.map((event) => Object.keys(event));
    expect(serializeEvents(cases)).toEqual(cases.map((event) => JSON.stringify(event)));
    expect(cases.map((event) => Object.keys(event))).toEqual(before);
  });

  for (const definition of MAPPER_DEFINITIONS) {
    it(`${definition.source}: LineNormalizer writes the value JSON.stringify of each mapped event writes`, () => {
      const lines = fixtureLines(definition.source);
      const normalizer = new LineNormalizer(definition.create({ sessionId: "n" }), { validate: true });
      const out: string[] = [];
      for (const line of lines) normalizer.line(line, out);
      normalizer.finish(out);
      const expected = replayTranscript(definition, lines, "n").map((event) => JSON.stringify(event));
      expect(out.length).toBe(expected.length);
      expect(out.map((line) => JSON.parse(line))).toEqual(expected.map((line) => JSON.parse(line)));
    });
  }

  it("writes the source text as read, which parses to the value JSON.stringify would write", () => {
    const event = (payload: object) => ({
      eventId: "s:1",
      type: "x",
      raw: { source: "acp.session-update", payload, method: "m/x" },
    });
    const texts = [
      '{"a":1}',
      '{"a": 1, "b": [1, 2]}',
      '{"a":1.0,"b":1e3,"c":0.0000001,"e":12345678901234567890,"f":1.50}',
      '{"a":"\\u00e9\\/\\u001B","b":"\\ud83d\\ude00","c":"\\ud800"}',
      '{"b":1,"10":2,"2":3}',
      '{"a":0,"a":1}',
      '{"payload":0,"raw":0}',
    ];
    for (const text of texts) {
      const value = JSON.parse(text) as object;
      const serializer = new EventSerializer();
      serializer.source(value, text);
      const line = serializer.serialize(event(value));
      // the text itself is spliced (JSON.stringify would write none of these spellings)
      expect(line).toBe(
        `{"eventId":"s:1","type":"x","raw":{"source":"acp.session-update","payload":${text},"method":"m/x"}}`,
      );
      expect(JSON.parse(line)).toEqual(JSON.parse(JSON.stringify(event(value))));
    }
  });

  it("serialises a source text with a line break, and a payload that is not the source", () => {
    const serializer = new EventSerializer();
    for (const text of ['{\n"a": 1}', '{"a":\r1}']) {
      const value = JSON.parse(text) as object;
      serializer.source(value, text);
      const line = serializer.serialize({ eventId: "s:1", raw: { source: "x", payload: value } });
      expect(line).toBe(JSON.stringify({ eventId: "s:1", raw: { source: "x", payload: value } }));
    }
    serializer.source({ a: 1 }, '{"a": 1}');
    const other = { a: 1 };
    expect(serializer.serialize({ raw: { source: "x", payload: other } })).toBe(
      '{"raw":{"source":"x","payload":{"a":1}}}',
    );
  });

  it("writes raw frames with other keys, escapes and nested values as JSON.stringify does", () => {
    const payload = { a: 1 };
    const raws: Record<string, unknown>[] = [
      { source: 'q"uote\n', payload, method: "m\u2028", messageType: undefined },
      { payload, source: "first-is-payload", n: 1.5, flag: true, none: null },
      { source: "nested", payload, extra: { payload: 0 } },
      { source: "marker-in-string", note: '"payload":0', payload },
      Object.freeze({ source: "frozen", payload }),
      { source: "fn", payload, f: () => 1 },
    ];
    for (const raw of raws) {
      const serializer = new EventSerializer();
      const event = { eventId: "s:1", raw };
      const keys = Object.keys(raw);
      expect(serializer.serialize(event)).toBe(JSON.stringify(event));
      expect(Object.keys(raw)).toEqual(keys);
      expect(raw.payload).toBe(payload);
    }
  });

  it("reads our own lines by their message text, exactly as the general path does", () => {
    const message: MessageText = { msg: undefined, text: "" };
    const msg = { jsonrpc: "2.0", method: "x", params: { text: "a }" } };
    const cases = [
      transcriptLine("in", msg, "2026-01-01T00:00:00.000Z"),
      transcriptLine("out", msg, ""),
      transcriptLine("in", [1, 2], "t"),
      transcriptLine("in", null, "t"),
      '{"t":"t","dir":"in","msg":{"a":1},"msg":{"b":2}}',
      '{"t":"t","dir":"in","msg":{"a":1},"extra":1}',
      '{"t":"t","dir":"in","msg": {"a":1} }',
      '{"t":"t","dir":"in","msg":{"a":1}}}',
      '{"t":"t\tx","dir":"in","msg":{"a":1}}',
      '{"t":"t","dir":"sideways","msg":{"a":1}}',
      '{"jsonrpc":"2.0","method":"x"}',
      '{"ts":"t","channel":"server->client","message":{"a":1}}',
    ];
    for (const line of cases) {
      const entry = readTranscriptLine(line, 3, message);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        expect(entry?.kind).toBe("malformed");
        continue;
      }
      expect(entry).toEqual({ ...entryFromValue(value), line: 3 });
      if (message.msg !== undefined) {
        expect(entry?.kind === "message" && entry.msg).toBe(message.msg);
        expect(JSON.parse(message.text)).toEqual(message.msg);
      }
    }
    readTranscriptLine(transcriptLine("in", msg, "t"), undefined, message);
    expect(message.text).toBe(JSON.stringify(msg));
    readTranscriptLine('{"t":"t","dir":"in","msg":{"a":1},"msg":{"b":2}}', undefined, message);
    expect(message.msg).toBeUndefined();
  });
});
