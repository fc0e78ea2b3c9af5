import { stat } from "node:fs/promises";
import { findMapperDefinition } from "../mappers/registry.js";
import { HeapGuard } from "../node/heap-guard.js";
import { DEFAULT_MAX_LINE_BYTES } from "../node/line-source.js";
import type { SessionStore } from "../store/types.js";
import { type FileResult, importFile } from "./import-file.js";
import { scanPath } from "./scan.js";
import { defaultRoots, HISTORY_SOURCES, type HistorySource } from "./sources.js";

export interface ImportOptions {
  /** Files or directories; none: the default roots of `from`, or of every source. */
  paths?: readonly string[];
  /** The source of every file; undefined: each file's first line decides (default roots: their own source). */
  from?: HistorySource;
  env?: NodeJS.ProcessEnv;
  maxLineBytes?: number;
  /** See FileImportOptions.settledAfterMs. */
  settledAfterMs?: number;
  now?: () => number;
}

export interface ImportHooks {
  /** A file is about to be read. */
  fileStarted?(path: string): void;
  /** Bytes of the current file read so far (cumulative). */
  progress?(path: string, bytes: number): void;
  fileDone?(result: FileResult): void;
  warning?(message: string): void;
}

export interface ImportSummary {
  new: number;
  grown: number;
  unchanged: number;
  skipped: number;
  /** Events appended. */
  events: number;
  /** `runtime.warning` events among them. */
  warningEvents: number;
  /** Import warnings: files skipped for a reason, unreadable directories. */
  warnings: number;
}

/** One import run over the given paths (or the default roots), a file at a time. */
export async function runImport(
  store: SessionStore,
  options: ImportOptions,
  hooks: ImportHooks = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = {
    new: 0,
    grown: 0,
    unchanged: 0,
    skipped: 0,
    events: 0,
    warningEvents: 0,
    warnings: 0,
  };
  const warn = (message: string) => {
    summary.warnings++;
    hooks.warning?.(message);
  };
  const missingReported = new Set<HistorySource>();
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  // a long import would otherwise let V8's old generation grow far past the little it keeps alive
  const heap = new HeapGuard();
  const onLine = () => heap.tick();
  for (const target of await targets(options, warn)) {
    for await (const item of scanPath(target.path, target.source)) {
      if (item.kind === "warning") {
        warn(item.message);
        continue;
      }
      hooks.fileStarted?.(item.path);
      let read = 0;
      const result = await importFile(store, item.path, item.source, {
        maxLineBytes,
        ...(options.settledAfterMs === undefined ? {} : { settledAfterMs: options.settledAfterMs }),
        ...(options.now === undefined ? {} : { now: options.now }),
        onLine,
        onBytes: (bytes) => {
          read += bytes;
          hooks.progress?.(item.path, read);
        },
      });
      summary[result.status]++;
      summary.events += result.events;
      summary.warningEvents += result.warningEvents;
      const missing = result.missingSource;
      if (missing === undefined || !missingReported.has(missing))
        for (const message of result.warnings) warn(message);
      if (missing !== undefined) missingReported.add(missing);
      hooks.fileDone?.(result);
    }
  }
  return summary;
}

interface Target {
  path: string;
  source: HistorySource | undefined;
}

/**
 * Paths given: each with `from` (or none). No paths: the default root of each source, skipping a root that does
 * not exist (that agent is not installed) and, with a warning, one whose source this build cannot map.
 */
async function targets(options: ImportOptions, warn: (message: string) => void): Promise<Target[]> {
  if (options.paths !== undefined && options.paths.length > 0)
    return options.paths.map((path) => ({ path, source: options.from }));
  const roots = defaultRoots(options.env);
  const out: Target[] = [];
  for (const source of options.from === undefined ? HISTORY_SOURCES : [options.from]) {
    const path = roots[source];
    if (!(await exists(path))) continue;
    if (findMapperDefinition(source) === undefined) {
      warn(
        `${path}: this build of provider-runtime has no "${source}" mapper; its sessions are not imported`,
      );
      continue;
    }
    out.push({ path, source });
  }
  return out;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
