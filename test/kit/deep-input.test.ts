import { describe, expect, it } from "vitest";
import { fixtureLines } from "../../bench/fixture-corpus.js";
import { EventSerializer } from "../../src/kit/event-serializer.js";
import { MAX_JSON_DEPTH, RAW_PREVIEW_CHARS } from "../../src/kit/json-depth.js";
import { LineNormalizer } from "../../src/kit/line-normalizer.js";
import { entryFromValue, readTranscriptLine, transcriptLine } from "../../src/kit/transcript.js";
import { MAPPER_DEFINITIONS } from "../../src/mappers/registry.js";
import { deepObject, deepObjectText, toolCallWith } from "./support/deep-records.js";

const DEEP = 10_000;

interface Written {
  sequence: number;
  type: string;
  payload: { detail?: { reason?: string } };
  raw?: { payload?: unknown };
  [key: string]: unknown;
}

function normalize(
  definition: (typeof MAPPER_DEFINITIONS)[number],
  lines: readonly string[],
  sessionId = "deep",
): Written[] {
  const normalizer = new LineNormalizer(definition.create({ sessionId }), { validate: true });
  const out: string[] = [];
  for (const line of lines) normalizer.line(line, out);
  normalizer.finish(out);
  return out.map((line) => JSON.parse(line) as Written);
}

function isReason(event: Written, reason: string): boolean {
  return event.type === "runtime.warning" && event.payload.detail?.reason === reason;
}

/** The events with their numbering taken off, to compare two runs that differ by an inserted line. */
function unnumbered(events: readonly Written[]): unknown[] {
  return events.map(({ eventId: _id, sequence: _sequence, ...rest }) => rest);
}

describe("input nested past MAX_JSON_DEPTH", () => {
  it("readTranscriptLine makes a too-deep entry of it, holding the line's start; MAX_JSON_DEPTH is read", () => {
    const lines = [
      deepObjectText(DEEP),
      `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`,
      `{"t":"2026-01-01T00:00:00.000Z","dir":"in","msg":${deepObjectText(DEEP)}}`,
      `{"ts":"2026-01-01T00:00:00.000Z","channel":"server->client","message":${deepObjectText(DEEP)}}`,
      `{"t":"t","dir":"in","msg":${deepObjectText(MAX_JSON_DEPTH)}}`,
    ];
    for (const line of lines) {
      const entry = readTranscriptLine(line, 7, undefined);
      expect(entry).toMatchObject({ kind: "malformed", code: "too-deep", line: 7 });
      if (entry?.kind !== "malformed") continue;
      expect(entry.text).toBe(line.slice(0, RAW_PREVIEW_CHARS));
      expect(entry.reason).toMatch(/nests deeper than 512 levels/);
    }
    expect(readTranscriptLine(lines[2] as string, 1, undefined)).toMatchObject({
      t: "2026-01-01T00:00:00.000Z",
    });
    for (const line of [deepObjectText(MAX_JSON_DEPTH), `{"t":"t","dir":"in","msg":${deepObjectText(511)}}`])
      expect(readTranscriptLine(line, 1, undefined)?.kind).toBe("message");
  });

  it("entryFromValue and transcriptLine take a value too deep for JSON.stringify", () => {
    const array = JSON.parse(`${"[".repeat(DEEP)}${"]".repeat(DEEP)}`) as unknown;
    expect(() => String(array)).toThrow(RangeError);
    const entry = entryFromValue(array);
    expect(entry).toMatchObject({ kind: "malformed", reason: "not a JSON object" });
    expect(entry.kind === "malformed" && entry.text).toBe("[".repeat(RAW_PREVIEW_CHARS));
    const line = transcriptLine("in", deepObject(DEEP), "t");
    expect(line).toBe(`{"t":"t","dir":"in","msg":${deepObjectText(DEEP)}}`);
    expect(readTranscriptLine(line, 1, undefined)).toMatchObject({ kind: "malformed", code: "too-deep" });
  });

  for (const definition of MAPPER_DEFINITIONS) {
    it(`${definition.source}: a deep line between valid ones is one too-deep warning, the rest as without it`, () => {
      const valid = fixtureLines(definition.source).slice(0, 24);
      const deep = toolCallWith(definition.source, deepObjectText(DEEP));
      const without = normalize(definition, valid);
      const withDeep = normalize(definition, [...valid.slice(0, 12), deep, ...valid.slice(12)]);
      const warnings = withDeep.filter((event) => isReason(event, "too-deep"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.raw?.payload).toBe(deep.slice(0, RAW_PREVIEW_CHARS));
      expect(withDeep.map((event) => event.sequence)).toEqual(withDeep.map((_, index) => index + 1));
      expect(unnumbered(withDeep.filter((event) => !isReason(event, "too-deep")))).toEqual(
        unnumbered(without),
      );
    });

    it(`${definition.source}: a deep record mapped directly (live) is written as warnings in its events' place`, () => {
      // a host mapping live records injects its clock
      const mapper = definition.create({ sessionId: "live", clock: () => "2026-12-01T00:00:00.000Z" });
      const serializer = new EventSerializer();
      const msg = JSON.parse(toolCallWith(definition.source, deepObjectText(DEEP))) as unknown;
      const events = mapper.map({ kind: "message", dir: "in", msg });
      const written = events.map((event) => JSON.parse(serializer.serialize(event)) as Written);
      expect(written.map((event) => event.sequence)).toEqual(events.map((event) => event.sequence));
      const tooDeep = written.filter((event) => isReason(event, "too-deep"));
      expect(tooDeep.length).toBeGreaterThan(0);
      for (const warning of tooDeep) {
        const preview = warning.raw?.payload;
        expect(typeof preview === "string" && preview.length <= RAW_PREVIEW_CHARS).toBe(true);
      }
      // the serializer's caches hold nothing of the failed writes: the next record is written as JSON.stringify does
      const next = mapper.map(entryFromValue({ jsonrpc: "2.0", method: "x/unknown", type: "x-unknown" }));
      for (const event of next) expect(serializer.serialize(event)).toBe(JSON.stringify(event));
    });
  }
});

describe("LineNormalizer.overlongLine", () => {
  for (const definition of MAPPER_DEFINITIONS) {
    it(`${definition.source}: one too-long warning with the head as raw, then the next line maps`, () => {
      const normalizer = new LineNormalizer(definition.create({ sessionId: "long" }), { validate: true });
      const out: string[] = [];
      const head = "x".repeat(RAW_PREVIEW_CHARS + 10);
      expect(normalizer.overlongLine(head, 70_000_000, 1_000_000, out)).toBe(1);
      const warning = JSON.parse(out[0] as string) as Written;
      expect(warning).toMatchObject({ type: "runtime.warning", payload: { detail: { reason: "too-long" } } });
      expect(warning.payload).toMatchObject({
        message: expect.stringMatching(/line 1: 70000000 bytes long/),
      });
      expect(warning.raw?.payload).toBe(head.slice(0, RAW_PREVIEW_CHARS));
      const valid = fixtureLines(definition.source).slice(0, 12);
      for (const line of valid) normalizer.line(line, out);
      normalizer.finish(out);
      const after = out.slice(1).map((line) => JSON.parse(line) as Written);
      expect(after.length).toBeGreaterThan(0);
      expect(unnumbered(after)).toEqual(unnumbered(normalize(definition, valid, "long")));
    });
  }
});
