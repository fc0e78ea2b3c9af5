import { LineNormalizer } from "../../kit/line-normalizer.js";
import { findMapperDefinition, registeredSources } from "../../mappers/registry.js";
import { HeapGuard } from "../../node/heap-guard.js";
import { LineSink } from "../../node/line-sink.js";
import { readLines } from "../../node/line-source.js";
import { ProgressLine } from "../../node/progress.js";
import { parseCommandArgs, singleInput } from "../args.js";
import { type CliIo, EXIT_OK, UsageError } from "../usage.js";

const HELP = `Usage: provider-runtime normalize --from SOURCE [--session-id ID] [--validate] [FILE|-]

Reads a native transcript (ours {t,dir,msg}, the probe format {ts,channel,message}, or bare JSONL) and writes
canonical events as JSONL. Malformed lines become runtime.warning events; the run goes on (exit 0).
  --from SOURCE      one of: ${registeredSources().join(", ") || "(none registered)"}
  --session-id ID    canonical session id (default: "session"); same input + same id → identical output
  --validate         check every event against the schema (slower); an invalid event is an error (exit 1)
  --progress         report lines and events read on stderr (default when stderr is a terminal)
`;

export async function normalizeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    from: { type: "string" },
    "session-id": { type: "string" },
    validate: { type: "boolean" },
    progress: { type: "boolean" },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (values.from === undefined) throw new UsageError("normalize needs --from SOURCE");
  const definition = findMapperDefinition(values.from);
  if (definition === undefined) {
    throw new UsageError(
      `unknown source "${values.from}"; expected one of: ${registeredSources().join(", ")}`,
    );
  }
  const file = singleInput(positionals);
  const mapper = definition.create({ sessionId: values["session-id"] ?? "session" });
  const normalizer = new LineNormalizer(mapper, { validate: values.validate === true });
  const sink = new LineSink(io.stdout);
  // Lines are mapped and serialised synchronously; the loop only waits when stdout pushes back.
  const out: string[] = [];
  const heap = new HeapGuard();
  const progress = new ProgressLine(io.stderr, values.progress ?? io.stderrIsTTY === true);
  let lines = 0;
  let events = 0;
  const report = () =>
    `normalize: ${lines.toLocaleString("en-US")} lines → ${events.toLocaleString("en-US")} events`;
  for await (const line of readLines(file, io.stdin)) {
    heap.tick();
    progress.tick(report);
    lines++;
    events += normalizer.line(line, out);
    if (out.length === 0) continue;
    const pending = sink.writeLines(out);
    out.length = 0;
    if (pending !== undefined) await pending;
  }
  events += normalizer.finish(out);
  await sink.writeLines(out);
  await sink.flush();
  progress.done(report);
  return EXIT_OK;
}
