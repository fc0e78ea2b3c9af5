// `npm run fuzz`: a million generated records per mapper (mutated real fixture records, truncated and concatenated
// lines, arbitrary JSON, in sequences of up to 25), checked by the same properties as the test suite. A failure is
// shrunk and saved to test/fixtures/fuzz-regressions/<source>.jsonl, which the suite replays from then on.
import { appendFileSync, mkdirSync } from "node:fs";
import fc from "fast-check";
import { fixtureLines } from "../bench/fixture-corpus.js";
import { MAPPER_DEFINITIONS } from "../src/mappers/registry.js";
import { checkMapperRun, transcriptLinesArbitrary } from "../test/support/mapper-fuzz.js";

const CASES = Number(process.env.FUZZ_CASES ?? 1_000_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const REGRESSIONS = new URL("../test/fixtures/fuzz-regressions/", import.meta.url);
/** `FUZZ_SOURCES=acp,cursor-acp` limits the run to those mappers. */
const ONLY = process.env.FUZZ_SOURCES?.split(",").filter(Boolean);

process.stdout.write(`fuzz: ${CASES.toLocaleString("en-US")} records per mapper, seed ${SEED}\n`);
let failures = 0;
for (const definition of MAPPER_DEFINITIONS) {
  if (ONLY !== undefined && !ONLY.includes(definition.source)) continue;
  const lines = fixtureLines(definition.source);
  let records = 0;
  let runs = 0;
  const started = Date.now();
  const property = fc.property(transcriptLinesArbitrary(lines), (input) => {
    records += input.length;
    runs++;
    const problem = checkMapperRun(definition, input);
    if (problem !== undefined) throw new Error(problem.problem);
  });
  // fast-check counts runs, not records: run in batches until the record budget is spent
  let outcome: "ok" | string = "ok";
  for (let batch = 0; records < CASES && outcome === "ok"; batch++) {
    const result = fc.check(property, { numRuns: 20_000, seed: SEED + batch, endOnFailure: false });
    if (result.failed) {
      const counterexample = (result.counterexample?.[0] ?? []) as string[];
      const problem = checkMapperRun(definition, counterexample)?.problem ?? String(result.errorInstance);
      mkdirSync(REGRESSIONS, { recursive: true });
      appendFileSync(
        new URL(`${definition.source}.jsonl`, REGRESSIONS),
        `${JSON.stringify({ problem, lines: counterexample })}\n`,
      );
      outcome = problem.split("\n")[0] ?? "failed";
    }
  }
  const seconds = (Date.now() - started) / 1000;
  if (outcome !== "ok") failures++;
  process.stdout.write(
    `${definition.source.padEnd(17)} ${records.toLocaleString("en-US").padStart(10)} records in ${runs.toLocaleString("en-US")} runs, ${seconds.toFixed(1)} s: ${outcome === "ok" ? "no failure" : `FAILED (${outcome}); saved as a regression case`}\n`,
  );
}
process.exitCode = failures === 0 ? 0 : 1;
