import { DriverSession } from "../src/drivers/driver-session.js";
import type { BaseMapper } from "../src/kit/base-mapper.js";
import type { MapperDefinition } from "../src/kit/mapper.js";
import { parseTranscriptLine } from "../src/kit/transcript.js";

export interface Latency {
  samples: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * The live path of every driver: a native line read from the program is parsed, stamped, recorded, mapped and
 * queued, and the host's `for await` receives the events. Measured from the line's arrival to its last event's
 * delivery.
 */
export async function liveLatency(definition: MapperDefinition, lines: readonly string[]): Promise<Latency> {
  const mapper = definition.create({ sessionId: "live" }) as unknown as BaseMapper;
  let recorded = 0;
  const session = new DriverSession(mapper, {
    record: (line) => (recorded += line.length),
    highWaterMark: 1 << 30,
  });
  const iterator = session.channel[Symbol.asyncIterator]();
  const samples: number[] = [];
  for (const line of lines) {
    const start = process.hrtime.bigint();
    const entry = parseTranscriptLine(line);
    if (entry?.kind !== "message") continue;
    const before = session.channel.buffered;
    session.ingest(entry.dir, entry.msg);
    const produced = session.channel.buffered - before;
    for (let i = 0; i < produced; i++) await iterator.next();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  return { samples: samples.length, p50Ms: at(0.5), p99Ms: at(0.99) };
}
