import fc from "fast-check";
import { RuntimeEventSchema } from "../../src/contracts/events.js";
import { LineNormalizer } from "../../src/kit/line-normalizer.js";
import type { MapperDefinition } from "../../src/kit/mapper.js";
import { parseTranscriptLine, type TranscriptEntry } from "../../src/kit/transcript.js";

const WEIRD: unknown[] = [
  null,
  0,
  -1,
  "",
  "x",
  [],
  {},
  true,
  1e308,
  "\u0000",
  { nested: { deep: [1, 2, 3] } },
];

/** One damaged copy of a native record: fields dropped, retyped or replaced at random depths. */
export function mutationArbitrary(record: unknown): fc.Arbitrary<unknown> {
  return fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { maxLength: 4 }).map((steps) => {
    let value = structuredClone(record);
    for (const [pathSeed, op, pick] of steps)
      value = mutateAt(value, pathSeed, op % 3, structuredClone(WEIRD[pick % WEIRD.length]));
    return value;
  });
}

function mutateAt(value: unknown, seed: number, op: number, replacement: unknown): unknown {
  if (value === null || typeof value !== "object") return op === 1 ? replacement : value;
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[seed % keys.length] as string;
  const target = value as Record<string, unknown>;
  const child = target[key];
  const descend = child !== null && typeof child === "object" && seed % 3 !== 0;
  if (descend) target[key] = mutateAt(child, Math.floor(seed / 3), op, replacement);
  else if (op === 0 && !Array.isArray(value)) delete target[key];
  else target[key] = replacement;
  return value;
}

/**
 * Transcript lines: real records mutated, truncated, concatenated, plus arbitrary JSON, in any order. Fixture
 * lines that are not JSON (hand-written fixtures hold deliberately broken ones) are no seeds.
 */
export function transcriptLinesArbitrary(fixtureLines: readonly string[]): fc.Arbitrary<string[]> {
  const records = fixtureLines.flatMap((line) => {
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      return [];
    }
  });
  const real = records.length > 0 ? fc.constantFrom(...records) : fc.constant({});
  const mutated = real
    .chain((record) => mutationArbitrary(record))
    .map((value) => JSON.stringify(value) ?? "null");
  const line = fc.oneof(
    { weight: 4, arbitrary: real.map((value) => JSON.stringify(value)) },
    { weight: 4, arbitrary: mutated },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value) ?? "null") },
    {
      weight: 1,
      arbitrary: fc.tuple(real, fc.double({ min: 0, max: 1, noNaN: true })).map(([v, f]) => truncate(v, f)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(real, real).map(([a, b]) => `${JSON.stringify(a)}${JSON.stringify(b)}`),
    },
  );
  return fc.array(line, { minLength: 1, maxLength: 25 });
}

function truncate(value: unknown, fraction: number): string {
  const text = JSON.stringify(value) ?? "";
  return text.slice(0, Math.floor(text.length * fraction));
}

export interface MapperRunProblem {
  problem: string;
  lines: string[];
}

/**
 * Runs lines through a fresh mapper and checks the properties every mapper must hold: it never throws, every
 * event is schema-valid, sequences run 1..n, every inbound record yields at least one event, and a second run
 * over the same lines, as `normalize` writes it, gives byte-identical output.
 */
export function checkMapperRun(
  definition: MapperDefinition,
  lines: readonly string[],
): MapperRunProblem | undefined {
  const fail = (problem: string) => ({ problem, lines: [...lines] });
  let first: string;
  try {
    const run = runLines(definition, lines);
    first = run.output;
    for (const [index, event] of run.events.entries()) {
      const parsed = RuntimeEventSchema.safeParse(event);
      if (!parsed.success)
        return fail(
          `invalid event ${JSON.stringify(event).slice(0, 300)}: ${parsed.error.issues[0]?.message}`,
        );
      if ((event as { sequence: number }).sequence !== index + 1)
        return fail(`sequence ${index + 1} out of order`);
    }
    if (run.silentInbound !== undefined)
      return fail(`inbound record yielded no event: ${run.silentInbound.slice(0, 200)}`);
  } catch (error) {
    return fail(`mapper threw: ${error instanceof Error ? error.stack : String(error)}`);
  }
  // A second run, through normalize's own path: the same bytes prove the replay deterministic and, as fuzzed
  // lines are written by JSON.stringify, the CLI's serializer equal to JSON.stringify.
  return normalizedLines(definition, lines) === first
    ? undefined
    : fail("replay not deterministic, or normalize's output differs from JSON.stringify of the events");
}

/** The output `normalize` writes for the lines (LineNormalizer: source texts, EventSerializer). */
function normalizedLines(definition: MapperDefinition, lines: readonly string[]): string {
  const normalizer = new LineNormalizer(definition.create({ sessionId: "fuzz" }));
  const out: string[] = [];
  for (const line of lines) normalizer.line(line, out);
  normalizer.finish(out);
  return out.join("\n");
}

function runLines(definition: MapperDefinition, lines: readonly string[]) {
  const mapper = definition.create({ sessionId: "fuzz" });
  const events: unknown[] = [];
  // An inbound record must yield an event: at once, or (a Claude Code record before any with a time, which waits
  // for the first time) later with its own raw record.
  const waiting = new Map<string, string>();
  const account = (produced: readonly unknown[]) => {
    for (const event of produced) {
      const payload = (event as { raw?: { payload?: unknown } }).raw?.payload;
      if (payload !== undefined) waiting.delete(JSON.stringify(payload));
    }
  };
  lines.forEach((line, index) => {
    const entry: TranscriptEntry | undefined = parseTranscriptLine(line, index + 1);
    if (entry === undefined) return;
    const produced = mapper.map(entry);
    if (produced.length === 0 && entry.kind === "message" && entry.dir === "in")
      waiting.set(JSON.stringify(entry.msg), line);
    account(produced);
    events.push(...produced);
  });
  const finished = mapper.finish();
  account(finished);
  events.push(...finished);
  const silentInbound = waiting.values().next().value;
  return { events, output: events.map((e) => JSON.stringify(e)).join("\n"), silentInbound };
}
