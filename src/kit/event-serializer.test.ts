import { describe, expect, it } from "vitest";
import { fixtureLines } from "../../bench/fixture-corpus.js";
import { MAPPER_DEFINITIONS } from "../mappers/registry.js";
import { EventSerializer, isCanonicalJson, serializeEvents } from "./event-serializer.js";
import { LineNormalizer } from "./line-normalizer.js";
import {
  entryFromValue,
  type MessageText,
  parseTranscriptLine,
  readTranscriptLine,
  transcriptLine,
} from "./transcript.js";

describe("EventSerializer", () => {
  for (const definition of MAPPER_DEFINITIONS) {
    it(`${definition.source}: every fixture event serialises byte-identical to JSON.stringify`, () => {
      const mapper = definition.create({ sessionId: "serializer" });
      const serializer = new EventSerializer();
      const message: MessageText = { msg: undefined, text: "" };
      let events = 0;
      for (const line of fixtureLines(definition.source)) {
        // with the message's source text at hand, as LineNormalizer does
        const entry = readTranscriptLine(line, undefined, message);
        serializer.source(message.msg, message.text);
        if (entry === undefined) continue;
        for (const event of mapper.map(entry)) {
          const before = Object.keys(event);
          expect(serializer.serialize(event)).toBe(JSON.stringify(event));
          expect(Object.keys(event)).toEqual(before);
          events++;
        }
      }
      expect(events).toBeGreaterThan(0);
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
    it(`${definition.source}: LineNormalizer writes what JSON.stringify of each mapped event writes`, () => {
      const lines = fixtureLines(definition.source);
      const normalizer = new LineNormalizer(definition.create({ sessionId: "n" }), { validate: true });
      const mapper = definition.create({ sessionId: "n" });
      const out: string[] = [];
      const expected: string[] = [];
      lines.forEach((line, index) => {
        normalizer.line(line, out);
        const entry = parseTranscriptLine(line, index + 1);
        if (entry !== undefined) for (const event of mapper.map(entry)) expected.push(JSON.stringify(event));
      });
      normalizer.finish(out);
      for (const event of mapper.finish()) expected.push(JSON.stringify(event));
      expect(out).toEqual(expected);
    });
  }

  it("writes a canonical source text as the payload, and serialises any other text", () => {
    const serializer = new EventSerializer();
    const event = (payload: object) => ({
      eventId: "s:1",
      type: "x",
      raw: { source: "acp.session-update", payload, method: "m/x" },
    });
    // canonical: the text itself is spliced (a marker JSON.stringify would not write proves which path ran)
    const msg = { a: 1 };
    serializer.source(msg, '{"a":1}');
    expect(serializer.serialize(event(msg))).toBe(
      '{"eventId":"s:1","type":"x","raw":{"source":"acp.session-update","payload":{"a":1},"method":"m/x"}}',
    );
    // a duplicate key is the one non-canonical text the check lets through: written as read, same parsed value
    const duplicate = JSON.parse('{"a":0,"a":1}') as object;
    serializer.source(duplicate, '{"a":0,"a":1}');
    const written = serializer.serialize(event(duplicate));
    expect(written).toContain('"payload":{"a":0,"a":1}');
    expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(event(duplicate))));
    const texts = [
      '{"a": 1, "b": [1, 2]}',
      '{"a":1.0,"b":1e3,"c":-0,"d":0.0000001,"e":12345678901234567890,"f":1.50}',
      '{"a":"\\u00e9\\/\\u001B","b":"\\ud83d\\ude00"}',
      '{"b":1,"10":2,"2":3}',
      '{\n"a":1}',
    ];
    for (const text of texts) {
      const value = JSON.parse(text) as object;
      expect(isCanonicalJson(text)).toBe(false);
      const fresh = new EventSerializer();
      fresh.source(value, text);
      const line = fresh.serialize(event(value));
      expect(line).toBe(JSON.stringify(event(value)));
      expect(JSON.parse(line)).toEqual(JSON.parse(JSON.stringify(event(value))));
    }
  });

  it("isCanonicalJson accepts only what JSON.stringify writes", () => {
    const values: unknown[] = [
      {
        a: 1,
        b: [true, false, null],
        c: 'é \u2028 \n\t\u001b"\\',
        d: -12.5,
        e: 0.000123,
        f: 123456789012345,
      },
      [0, -1, 0.1, 1234567.12345678, -0.000001],
      "plain",
    ];
    for (const value of values) expect(isCanonicalJson(JSON.stringify(value))).toBe(true);
    const rejected = ["[1.50]", "[1234567890123456]", "[1e3]", '["\\/"]', '["\\u00E9"]', "[ 1]", '{"0":1}'];
    for (const text of rejected) expect(isCanonicalJson(text)).toBe(false);
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
