import { RuntimeEventSchema } from "../src/contracts/events.js";
import type { MapperDefinition } from "../src/kit/mapper.js";
import { parseTranscriptLine } from "../src/kit/transcript.js";

export interface Throughput {
  messages: number;
  seconds: number;
  perSecond: number;
  events: number;
}

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

/** Normalization as `normalize` does it: read the line, map, serialise each event (raw attached). */
export function normalization(
  definition: MapperDefinition,
  lines: readonly string[],
  validate: boolean,
): Throughput {
  const mapper = definition.create({ sessionId: "bench" });
  let sink = 0;
  let index = 0;
  return timed(lines, (line) => {
    const entry = parseTranscriptLine(line, ++index);
    if (entry === undefined) return 0;
    const events = mapper.map(entry);
    for (const event of events) {
      if (validate) RuntimeEventSchema.parse(event);
      sink += JSON.stringify(event).length;
    }
    return events.length + (sink < 0 ? 1 : 0);
  });
}
