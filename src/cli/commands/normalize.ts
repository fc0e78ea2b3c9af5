import { MAX_JSON_DEPTH } from "../../kit/json-depth.js";
import { LineNormalizer } from "../../kit/line-normalizer.js";
import { findMapperDefinition, registeredSources } from "../../mappers/registry.js";
import { sessionFileLines } from "../../node/claude-code-session.js";
import { HeapGuard } from "../../node/heap-guard.js";
import { LineSink } from "../../node/line-sink.js";
import { DEFAULT_MAX_LINE_BYTES, readLineRecords } from "../../node/line-source.js";
import { ProgressLine } from "../../node/progress.js";
import { parseCommandArgs, singleInput } from "../args.js";
import { type CliIo, EXIT_OK, UsageError } from "../usage.js";

const HELP = `Usage: provider-runtime normalize --from SOURCE [--session-id ID] [--validate] [--max-line-bytes N] [FILE|-]

Reads a native transcript (ours {t,dir,msg}, the probe format {ts,channel,message}, or bare JSONL) and writes
canonical events as JSONL. A Claude Code session file (--from claude-code) is read with its subagents' files
(<session>/subagents/agent-*.jsonl, or 2.0's agent-*.jsonl beside it), merged in by time. Malformed lines become runtime.warning events; the run goes on (exit 0). So do lines
nested deeper than ${MAX_JSON_DEPTH} levels and lines longer than --max-line-bytes (each with its start as raw).
  --from SOURCE      one of: ${registeredSources().join(", ") || "(none registered)"}
  --session-id ID    canonical session id (default: "session"); same input + same id → identical output
  --validate         check every event against the schema (slower); an invalid event is an error (exit 1)
  --progress         report lines and events read on stderr (default when stderr is a terminal)
  --max-line-bytes N the longest line read (default ${DEFAULT_MAX_LINE_BYTES}, 64 MiB); a longer one is a warning
`;

export async function normalizeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    from: { type: "string" },
    "session-id": { type: "string" },
    validate: { type: "boolean" },
    progress: { type: "boolean" },
    "max-line-bytes": { type: "string" },
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
  const maxLineBytes = byteCount(values["max-line-bytes"]);
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
  // A Claude Code session file is read with its subagents' files, merged in by record time.
  const input =
    definition.source === "claude-code" && file !== undefined && file !== "-"
      ? sessionFileLines(file, { maxLineBytes })
      : readLineRecords(file, io.stdin, { maxLineBytes });
  for await (const line of input) {
    heap.tick();
    progress.tick(report);
    lines++;
    events +=
      typeof line === "string"
        ? normalizer.line(line, out)
        : normalizer.overlongLine(line.head, line.bytes, maxLineBytes, out);
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

function byteCount(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_LINE_BYTES;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`--max-line-bytes needs a whole number of bytes above 0, got "${text}"`);
  return value;
}
