// Where normalization time goes for one source, streaming as `normalize` does (each line read, mapped and written
// before the next, so nothing piles up in the heap): the floor, then reading alone, + mapping, + serialising,
// + validating. Fastest of BENCH_TRIALS (5) runs, ms per BENCH_LINES (200,000) lines; each stage is the
// difference to the one before.
//   npx tsx bench/breakdown.ts SOURCE

import { RuntimeEventSchema } from "../src/contracts/events.js";
import { EventSerializer } from "../src/kit/event-serializer.js";
import type { MapperDefinition } from "../src/kit/mapper.js";
import { type MessageText, readTranscriptLine } from "../src/kit/transcript.js";
import { findMapperDefinition } from "../src/mappers/registry.js";
import { repeatedCorpus } from "./fixture-corpus.js";
import { floor } from "./throughput.js";

const source = process.argv[2] ?? "codex-sdk";
const found = findMapperDefinition(source);
if (found === undefined) throw new Error(`unknown source ${source}`);
const definition: MapperDefinition = found;
const lines = repeatedCorpus(definition.source, Number(process.env.BENCH_LINES ?? 200_000));
const trials = Number(process.env.BENCH_TRIALS ?? 5);

type Stage = "read" | "map" | "serialize" | "validate";
const STAGES: Stage[] = ["read", "map", "serialize", "validate"];

/** The pipeline up to `last`, over every line; returns a number so that no work is optimised away. */
function pipeline(last: Stage): number {
  const depth = STAGES.indexOf(last);
  const mapper = definition.create({ sessionId: "bench" });
  const serializer = new EventSerializer();
  const message: MessageText = { msg: undefined, text: "" };
  let sink = 0;
  for (const line of lines) {
    const entry = readTranscriptLine(line, undefined, message);
    if (entry === undefined) continue;
    if (depth === 0) {
      sink++;
      continue;
    }
    serializer.source(message.msg, message.text);
    for (const event of mapper.map(entry)) {
      if (depth === 1) sink++;
      else sink += serializer.serialize(event).length;
      if (depth === 3) RuntimeEventSchema.parse(event);
    }
  }
  return sink;
}

const best = new Map<string, number>();
const keepFastest = (name: string, ms: number) =>
  best.set(name, Math.min(best.get(name) ?? Number.POSITIVE_INFINITY, ms));
const time = (name: string, body: () => number) => {
  const start = performance.now();
  if (body() < 0) throw new Error("unreachable");
  keepFastest(name, performance.now() - start);
};
for (let trial = 0; trial < trials; trial++) {
  keepFastest("floor", floor(lines).seconds * 1000);
  for (const stage of STAGES) time(stage, () => pipeline(stage));
}
const ms = (name: string) => best.get(name) ?? 0;
const floorMs = ms("floor");
const parts = STAGES.map((stage, index) => {
  const before = index === 0 ? 0 : ms(STAGES[index - 1] as Stage);
  return `${stage} +${Math.round(ms(stage) - before)}`;
});
console.log(
  `${source}: floor ${Math.round(floorMs)} ms; ${parts.join(", ")} ms; plain ratio ${(floorMs / ms("serialize")).toFixed(2)}x, validated ${(floorMs / ms("validate")).toFixed(2)}x`,
);
