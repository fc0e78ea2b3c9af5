// One source's normalization against its floor, for profiling:
//   node --cpu-prof --import tsx bench/profile-one.ts SOURCE [validate]     (BENCH_LINES, default 200,000)
import { findMapperDefinition } from "../src/mappers/registry.js";
import { repeatedCorpus } from "./fixture-corpus.js";
import { floor, normalization } from "./throughput.js";

const source = process.argv[2] ?? "codex-sdk";
const validate = process.argv[3] === "validate";
const definition = findMapperDefinition(source);
if (definition === undefined) throw new Error(`unknown source ${source}`);
const lines = repeatedCorpus(definition.source, Number(process.env.BENCH_LINES ?? 200_000));
normalization(definition, lines.slice(0, 20_000), validate);
const base = floor(lines);
const run = normalization(definition, lines, validate);
const ratio = (run.perSecond / base.perSecond).toFixed(2);
process.stdout.write(
  `${source}: floor ${Math.round(base.perSecond)} msg/s, normalization ${Math.round(run.perSecond)} msg/s (${ratio}x)\n`,
);
