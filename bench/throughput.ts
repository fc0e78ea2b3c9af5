import { EventSerializer } from "../src/kit/event-serializer.js";
import { LineNormalizer } from "../src/kit/line-normalizer.js";
import type { MapperDefinition } from "../src/kit/mapper.js";
import { type MessageText, readTranscriptLine } from "../src/kit/transcript.js";

export interface Throughput {
  messages: number;
  seconds: number;
  perSecond: number;
  events: number;
  /** Characters written (normalization) or read (floor). */
  chars?: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
const heapAfterGc = () => {
  gc?.();
  return process.memoryUsage().heapUsed;
};

function timed(lines: readonly string[], body: (line: string) => number): Throughput {
  const start = process.hrtime.bigint();
  let events = 0;
  for (const line of lines) events += body(line);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { messages: lines.length, seconds, perSecond: lines.length / seconds, events };
}

/** The floor: parse each input line and serialise the parsed object again. */
export function floor(lines: readonly string[]): Throughput {
  let sink = 0;
  const result = timed(lines, (line) => {
    sink += JSON.stringify(JSON.parse(line)).length;
    return 1;
  });
  if (sink < 0) throw new Error("unreachable");
  return result;
}

/**
 * Normalization exactly as `normalize` does it (the same LineNormalizer): read the line, map, serialise each
 * event (raw attached); only the output sink differs (lengths summed instead of a stream written). No collection
 * is forced right before the timing: V8 sizes its heap down after a forced full GC, and the run that follows
 * pays for that in extra collections (~5% for codex-eventmsg), which neither `normalize` nor a host would.
 */
export function normalization(
  definition: MapperDefinition,
  lines: readonly string[],
  validate: boolean,
): Throughput {
  const normalizer = new LineNormalizer(definition.create({ sessionId: "bench" }), { validate });
  const out: string[] = [];
  let sink = 0;
  const timing = timed(lines, (line) => {
    const count = normalizer.line(line, out);
    for (const text of out) sink += text.length;
    out.length = 0;
    return count;
  });
  return { ...timing, chars: sink };
}

/**
 * The heap a mapper still holds after mapping `lines`, once garbage is collected (needs --expose-gc), MB; an
 * untimed run of its own.
 */
export function retainedState(definition: MapperDefinition, lines: readonly string[]): number | undefined {
  if (gc === undefined) return undefined;
  const before = heapAfterGc();
  const normalizer = new LineNormalizer(definition.create({ sessionId: "bench" }));
  const out: string[] = [];
  for (const line of lines) {
    normalizer.line(line, out);
    out.length = 0;
  }
  const retained = heapAfterGc() - before;
  // keep the mapper (and its state) alive until the heap was measured
  if (normalizer.line("", out) < 0) throw new Error("unreachable");
  return Math.max(0, retained) / 1024 ** 2;
}

/**
 * What normalization would reach if mapping cost nothing: `JSON.parse` of each input line plus writing the events
 * the mapper produced for it (built beforehand, outside the timing) with the same EventSerializer. Output volume
 * alone sets this bound: a source whose events are many times its input in bytes cannot get near the floor
 * however fast it maps.
 */
export function parseAndWriteOnly(definition: MapperDefinition, lines: readonly string[]): Throughput {
  const mapper = definition.create({ sessionId: "bench" });
  const mapped = lines.map((line) => {
    const message: MessageText = { msg: undefined, text: "" };
    const entry = readTranscriptLine(line, undefined, message);
    return { message, events: entry === undefined ? [] : [...mapper.map(entry)] };
  });
  const serializer = new EventSerializer();
  let sink = 0;
  let index = 0;
  const result = timed(lines, (line) => {
    if (JSON.parse(line) === undefined) sink--;
    const { message, events } = mapped[index++] as (typeof mapped)[number];
    serializer.source(message.msg, message.text);
    for (const event of events) sink += serializer.serialize(event).length;
    return events.length;
  });
  if (sink < 0) throw new Error("unreachable");
  return result;
}
