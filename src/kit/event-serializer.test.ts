import { describe, expect, it } from "vitest";
import { fixtureLines } from "../../bench/fixture-corpus.js";
import { MAPPER_DEFINITIONS } from "../mappers/registry.js";
import { EventSerializer, serializeEvents } from "./event-serializer.js";
import { LineNormalizer } from "./line-normalizer.js";
import { parseTranscriptLine } from "./transcript.js";

describe("EventSerializer", () => {
  for (const definition of MAPPER_DEFINITIONS) {
    it(`${definition.source}: every fixture event serialises byte-identical to JSON.stringify`, () => {
      const mapper = definition.create({ sessionId: "serializer" });
      const serializer = new EventSerializer();
      let events = 0;
      for (const line of fixtureLines(definition.source)) {
        const entry = parseTranscriptLine(line);
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
    ];
    expect(serializeEvents(cases)).toEqual(cases.map((event) => JSON.stringify(event)));
  });

  it("LineNormalizer writes what JSON.stringify of each mapped event writes", () => {
    const definition = MAPPER_DEFINITIONS[0];
    if (definition === undefined) throw new Error("no mapper");
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
});
