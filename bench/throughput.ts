import { LineNormalizer } from "../src/kit/line-normalizer.js";
import type { MapperDefinition } from "../src/kit/mapper.js";

export interface Throughput {
  messages: number;
  seconds: number;
  perSecond: number;
  events: number;
  /** Heap the mapper holds once the run is over and garbage is collected (needs --expose-gc), MB. */
  retainedMb?: number;
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
 * event (raw attached); only the output sink differs (lengths summed instead of a stream written).
 */
export function normalization(
  definition: MapperDefinition,
  lines: readonly string[],
  validate: boolean,
): Throughput {
  const before = heapAfterGc();
  const normalizer = new LineNormalizer(definition.create({ sessionId: "bench" }), { validate });
  const out: string[] = [];
  let sink = 0;
  const result = timed(lines, (line) => {
    const count = normalizer.line(line, out);
    for (const text of out) sink += text.length;
    out.length = 0;
    return count;
  });
  if (sink < 0) throw new Error("unreachable");
  if (gc === undefined) return result;
  const retained = heapAfterGc() - before;
  // keep the mapper (and its state) alive until the heap was measured
  if (normalizer.line("", out) < 0) throw new Error("unreachable");
  return { ...result, retainedMb: Math.max(0, retained) / 1024 ** 2 };
}
