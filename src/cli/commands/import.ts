import type { FileResult, ImportSummary } from "../../history/index.js";
import { HISTORY_SOURCES, isHistorySource, runImport } from "../../history/index.js";
import { findMapperDefinition } from "../../mappers/registry.js";
import { DEFAULT_MAX_LINE_BYTES } from "../../node/line-source.js";
import { defaultDataDir } from "../../store/data-dir.js";
import { openSqliteStore } from "../../store/sqlite-store.js";
import { escapeControls } from "../../view/terminal-text.js";
import { parseCommandArgs } from "../args.js";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "../usage.js";

const HELP = `Usage: provider-runtime import [--data DIR] [--from claude-code|codex-rollout] [PATH...]

Normalizes local agent history into the store (DIR/store.db), one session per file, incrementally: a file
imported before adds only what it gained since, a file not written since is not read. A last line still being
written is left for the next run. Without PATH: ~/.claude/projects and $CODEX_HOME/sessions (~/.codex/sessions).
  --data DIR         the store's directory (default ~/.provider-runtime)
  --from SOURCE      every file is of this source; without it each file's first line decides
  --progress         a counter on stderr (default when stderr is a terminal; else one line per file)
Prints a summary on stdout; warnings (files skipped, unreadable directories) go to stderr. Exit 0 unless the
store cannot be opened.
`;

export async function importCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    data: { type: "string" },
    from: { type: "string" },
    progress: { type: "boolean" },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const from = values.from;
  if (from !== undefined && !isHistorySource(from))
    throw new UsageError(`unknown source "${from}"; expected one of: ${HISTORY_SOURCES.join(", ")}`);
  if (from !== undefined && findMapperDefinition(from) === undefined) {
    io.stderr.write(
      `provider-runtime import: this build has no "${from}" mapper; its sessions cannot be imported\n`,
    );
    return EXIT_FAILURE;
  }
  let store: Awaited<ReturnType<typeof openSqliteStore>>;
  try {
    store = await openSqliteStore({ dataDir: values.data ?? defaultDataDir() });
  } catch (error) {
    io.stderr.write(`provider-runtime import: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_FAILURE;
  }
  const report = new ImportReport(io, values.progress ?? io.stderrIsTTY === true);
  try {
    const summary = await runImport(
      store,
      { paths: positionals, ...(from === undefined ? {} : { from }), maxLineBytes: DEFAULT_MAX_LINE_BYTES },
      report,
    );
    report.end();
    io.stdout.write(`${describeSummary(summary)}\n`);
  } finally {
    await store.close();
  }
  return EXIT_OK;
}

/** Progress on stderr: a counter line rewritten in place on a terminal, a plain line per file otherwise. */
class ImportReport {
  #files = 0;
  #events = 0;
  #lastDraw = 0;
  #drawn = false;

  constructor(
    readonly io: CliIo,
    readonly live: boolean,
  ) {}

  fileStarted(path: string): void {
    this.#files++;
    if (this.live) this.#draw(path, 0, true);
  }

  progress(path: string, bytes: number): void {
    if (this.live) this.#draw(path, bytes, false);
  }

  fileDone(result: FileResult): void {
    this.#events += result.events;
    if (this.live) {
      this.#draw(result.path, 0, true);
      return;
    }
    const pending =
      result.pendingBytes > 0 ? `, ${result.pendingBytes} bytes of an unfinished last line left` : "";
    this.io.stderr.write(
      `import: ${result.status.padEnd(9)} ${result.source ?? "-"} ${result.path} (${result.events} events${pending})\n`,
    );
  }

  warning(message: string): void {
    this.#clear();
    this.io.stderr.write(`import: warning: ${message}\n`);
  }

  end(): void {
    this.#clear();
  }

  #draw(path: string, bytes: number, force: boolean): void {
    const now = Date.now();
    if (!force && now - this.#lastDraw < 100) return;
    this.#lastDraw = now;
    const mb = bytes > 0 ? ` ${(bytes / 1024 ** 2).toFixed(1)} MB` : "";
    const line = `import: ${this.#files} files, ${this.#events.toLocaleString("en-US")} events — ${escapeControls(path)}${mb}`;
    this.io.stderr.write(`\r\x1b[2K${line.length > 160 ? `${line.slice(0, 80)}…${line.slice(-79)}` : line}`);
    this.#drawn = true;
  }

  #clear(): void {
    if (this.#drawn) this.io.stderr.write("\r\x1b[2K");
    this.#drawn = false;
  }
}

export function describeSummary(summary: ImportSummary): string {
  const n = (value: number) => value.toLocaleString("en-US");
  return (
    `import: sessions ${n(summary.new)} new, ${n(summary.grown)} grown, ${n(summary.unchanged)} unchanged, ` +
    `${n(summary.skipped)} skipped; ${n(summary.events)} events (${n(summary.warningEvents)} runtime.warning); ` +
    `${n(summary.warnings)} warnings`
  );
}
