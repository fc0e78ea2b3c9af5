// `npm run bench`: normalization throughput per source against the JSON parse+stringify floor measured in the same
// run, peak memory, `normalize` over a 1 GB file as a whole process, the live per-event overhead, the store and the
// session server (`--big-only`, `--store-only`, `--import-only`, `--server-only` run one section; `--no-big`,
// `--no-store`, `--no-import`, `--no-server` skip one).
import { existsSync } from "node:fs";
import { MAPPER_DEFINITIONS } from "../src/mappers/registry.js";
import { NATS_SERVER_BIN } from "../test/cluster/support/nats-server.js";
import { buildCli, normalizeProcess, removeFile, writeBigTranscript } from "./big-file.js";
import { CORPUS_MAX_CHARS, fixtureLines, repeatedCorpus } from "./fixture-corpus.js";
import { importBench } from "./import-history.js";
import { jetStreamListBench } from "./jetstream-list.js";
import { liveLatency } from "./live-latency.js";
import { formatServerBench, serverBenchesFromEnv } from "./server-section.js";
import { sessionListBench } from "./session-list.js";
import { storeBench } from "./store.js";
import { floor, normalization, parseAndWriteOnly, retainedState, type Throughput } from "./throughput.js";

const args = new Set(process.argv.slice(2));
const LINES = Number(process.env.BENCH_LINES ?? 200_000);
/** Each measure runs this many times, interleaved, and the fastest run counts (noise only ever slows a run). */
const TRIALS = Math.max(1, Number(process.env.BENCH_TRIALS ?? 3));
const BIG_BYTES = Number(process.env.BENCH_BIG_BYTES ?? 1024 ** 3);
const gc = (globalThis as { gc?: () => void }).gc;

const fastest = (best: Throughput | undefined, run: Throughput): Throughput =>
  best === undefined || run.perSecond > best.perSecond ? run : best;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const out = (line: string) => process.stdout.write(`${line}\n`);

/** BENCH_SOURCES=a,b times only those sources (each mapper's code then runs alone in the process, as in `normalize`). */
const tableSources = process.env.BENCH_SOURCES?.split(",");
const bigOnly = args.has("--big-only");
const storeOnly = args.has("--store-only");
const importOnly = args.has("--import-only");
const serverOnly = args.has("--server-only");
const listOnly = args.has("--list-only");
const only = bigOnly || storeOnly || importOnly || serverOnly || listOnly;
const tableDefinitions = MAPPER_DEFINITIONS.filter(
  (d) => !only && (tableSources === undefined || tableSources.includes(d.source)),
);
out(`provider-runtime bench — Node ${process.version}`);
if (tableDefinitions.length > 0) {
  out(
    `${LINES.toLocaleString("en-US")} messages per source (fewer where they pass ${fmt(CORPUS_MAX_CHARS / 1024 ** 2)} MB), fastest of ${TRIALS} runs`,
  );
  out(
    "source            floor msg/s   norm msg/s  ratio   +validate msg/s  ratio  ceiling  out/in   events  state MB  live p50/p99 ms",
  );
}
for (const definition of tableDefinitions) {
  const lines = repeatedCorpus(definition.source, LINES);
  if (lines.length === 0) {
    out(`${definition.source.padEnd(17)} (no fixtures)`);
    continue;
  }
  if (lines.length < LINES)
    out(`${definition.source}: ${fmt(lines.length)} messages (the corpus's size bound)`);
  // warm-up so the JIT has seen every path before timing
  normalization(definition, lines.slice(0, 20_000), false);
  normalization(definition, lines.slice(0, 20_000), true);
  floor(lines.slice(0, 20_000));
  let base: Throughput | undefined;
  let plain: Throughput | undefined;
  let validated: Throughput | undefined;
  let ceiling: Throughput | undefined;
  for (let trial = 0; trial < TRIALS; trial++) {
    gc?.(); // the last trial's ceiling held every event
    base = fastest(base, floor(lines));
    plain = fastest(plain, normalization(definition, lines, false));
    validated = fastest(validated, normalization(definition, lines, true));
    ceiling = fastest(ceiling, parseAndWriteOnly(definition, lines));
  }
  if (base === undefined || plain === undefined || validated === undefined || ceiling === undefined)
    throw new Error("no trial ran");
  const retainedMb = retainedState(definition, lines);
  const inputChars = lines.reduce((sum, line) => sum + line.length, 0);
  const live = await liveLatency(definition, lines.slice(0, 50_000));
  out(
    [
      definition.source.padEnd(17),
      fmt(base.perSecond).padStart(11),
      fmt(plain.perSecond).padStart(12),
      `${(plain.perSecond / base.perSecond).toFixed(2)}x`.padStart(6),
      fmt(validated.perSecond).padStart(17),
      `${(validated.perSecond / base.perSecond).toFixed(2)}x`.padStart(6),
      `${(ceiling.perSecond / base.perSecond).toFixed(2)}x`.padStart(8),
      `${((plain.chars ?? 0) / inputChars).toFixed(1)}`.padStart(7),
      fmt(plain.events).padStart(8),
      (retainedMb === undefined ? "n/a" : retainedMb.toFixed(1)).padStart(9),
      `${live.p50Ms.toFixed(3)}/${live.p99Ms.toFixed(3)}`.padStart(16),
    ].join(" "),
  );
}

if ((!only || storeOnly) && !args.has("--no-store")) {
  const events = Number(process.env.BENCH_STORE_EVENTS ?? 100_000);
  const sessions = 50;
  const chunk = 8;
  out(
    `\nstore (SQLite, WAL): ${events.toLocaleString("en-US")} golden events in ${sessions} sessions appending ${chunk} at a time, against plain INSERTs of the same rows in one transaction:`,
  );
  for (const synchronous of ["full", "normal"] as const) {
    const run = await storeBench({ events, sessions, chunk, trials: TRIALS, synchronous });
    out(
      `  synchronous=${synchronous.padEnd(6)} append ${fmt(run.appendPerSecond).padStart(8)} events/s (${fmt(run.commits)} commits)  insert ${fmt(run.insertPerSecond).padStart(8)} rows/s  ratio ${(run.appendPerSecond / run.insertPerSecond).toFixed(2)}x  stored ${run.smaller.toFixed(2)}x smaller than raw inline`,
    );
  }
}

if ((!only || listOnly) && !args.has("--no-list")) {
  // BENCH_LIST_SESSIONS / BENCH_LIST_PROMPTS: a smaller registry for a quick run
  const sessions = Number(process.env.BENCH_LIST_SESSIONS ?? 10_000);
  const prompts = Number(process.env.BENCH_LIST_PROMPTS ?? 100_000);
  const run = await sessionListBench(
    sessions,
    Math.max(1, Math.round(prompts / sessions)),
    Math.max(5, TRIALS),
  );
  out(
    `\nsession list and search (SQLite + FTS5): ${fmt(run.sessions)} sessions, ${fmt(run.prompts)} prompts, against a plain query of the same rows:`,
  );
  for (const row of run.rows)
    out(
      `  ${row.name.padEnd(24)} ours ${row.oursMs.toFixed(3).padStart(8)} ms  plain ${row.plainMs.toFixed(3).padStart(8)} ms  ratio ${(row.oursMs / row.plainMs).toFixed(2)}x  (${row.found} found)`,
    );
  out(`  heap after: ${run.heapMB.toFixed(0)} MB`);
  if (existsSync(NATS_SERVER_BIN)) {
    // the registry keeps a session's last prompts in its record (64 at most), so the same words are found
    const js = await jetStreamListBench(
      sessions,
      Math.min(64, Math.max(1, Math.round(prompts / sessions))),
      3,
    );
    out(
      `session list and search (JetStream registry, nats-server -js): ${fmt(js.sessions)} sessions, ${fmt(js.prompts)} prompts, against one registry read (${js.getMs.toFixed(3)} ms):`,
    );
    for (const row of js.rows)
      out(
        `  ${row.name.padEnd(24)} ${row.ms.toFixed(1).padStart(8)} ms = ${fmt(row.ms / js.getMs)} registry reads  (${row.found} found)`,
      );
    out(`  heap after: ${js.heapMB.toFixed(0)} MB`);
  } else out(`  (JetStream: no ${NATS_SERVER_BIN}; apt-get install nats-server)`);
}

if ((!only || bigOnly) && !args.has("--no-big")) {
  // every source: a mapper whose tables outgrow their memory shows only over a long run of its own records
  const wanted = process.env.BENCH_BIG_SOURCES?.split(",");
  const sources = MAPPER_DEFINITIONS.map((d) => d.source).filter(
    (source) => (wanted === undefined || wanted.includes(source)) && fixtureLines(source).length > 0,
  );
  out(`\nnormalize over ${(BIG_BYTES / 1024 ** 3).toFixed(2)} GB per source (whole process):`);
  const command = await buildCli();
  for (const source of sources) {
    const file = await writeBigTranscript(source, BIG_BYTES);
    try {
      const run = await normalizeProcess(command, source, file);
      out(
        `  ${source.padEnd(17)} ${(run.bytes / 1024 ** 2).toFixed(0)} MB in ${run.seconds.toFixed(1).padStart(5)} s, peak RSS ${run.peakRssMb.toFixed(0).padStart(4)} MB, exit ${run.exitCode}`,
      );
    } finally {
      await removeFile(file);
    }
  }
}

if ((!only || importOnly) && !args.has("--no-import")) {
  const bytes = Number(process.env.BENCH_IMPORT_BYTES ?? 1024 ** 3);
  const run = await importBench(await buildCli(), bytes);
  out(
    `\nimport of ${(run.bytes / 1024 ** 3).toFixed(2)} GB of rollouts in ${run.files} files (whole process, store in WAL, synchronous=full):`,
  );
  for (const [name, pass] of [
    ["first run ", run.first],
    ["second run", run.second],
  ] as const)
    out(
      `  ${name} ${pass.seconds.toFixed(1).padStart(6)} s, peak RSS ${pass.peakRssMb.toFixed(0).padStart(4)} MB, exit ${pass.exitCode}: ${pass.summary}`,
    );
  out(`  store.db ${(run.storeBytes / 1024 ** 2).toFixed(0)} MB`);
}

if ((!only || serverOnly) && !args.has("--no-server")) {
  const command = await buildCli();
  out("");
  for await (const result of serverBenchesFromEnv(command))
    for (const line of formatServerBench(result)) out(line);
}
