import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SourceName } from "../src/kit/mapper.js";

/** Where each source's recorded fixtures live. */
export const FIXTURE_DIRS: Record<SourceName, string[]> = {
  "codex-app-server": ["codex"],
  "codex-eventmsg": ["codex-eventmsg"],
  "codex-rollout": ["codex-rollout"],
  "codex-sdk": ["codex-sdk"],
  "claude-sdk": ["claude"],
  "claude-code": ["claude-code"],
  acp: ["acp"],
  "cursor-acp": ["acp"],
};

const ROOT = new URL("../test/fixtures/", import.meta.url).pathname;

/** The transcript lines of a source's recorded fixtures (golden outputs and exec captures excluded). */
export function fixtureLines(source: SourceName): string[] {
  const lines: string[] = [];
  for (const dir of FIXTURE_DIRS[source]) {
    let files: string[];
    try {
      files = readdirSync(join(ROOT, dir));
    } catch {
      continue;
    }
    for (const file of files.sort()) {
      if (!file.endsWith(".jsonl") || /\.(expected|exec|canonical)\.jsonl$/.test(file)) continue;
      for (const line of readFileSync(join(ROOT, dir, file), "utf8").split("\n"))
        if (line.trim()) lines.push(line);
    }
  }
  return lines;
}

const ID_KEY = /(^id$|Id$|_id$|^call_id$|^session_id$)/;

/**
 * Repetition `n` of a record with every native id made unique (string ids suffixed, JSON-RPC numeric ids offset),
 * so that correlation state really grows as it would over a long history.
 */
export function uniquify(value: unknown, n: number, key = ""): unknown {
  if (typeof value === "string") return ID_KEY.test(key) && value.length > 0 ? `${value}~${n}` : value;
  if (typeof value === "number") return key === "id" ? value + n * 1_000_000 : value;
  if (Array.isArray(value)) return value.map((v) => uniquify(v, n, key));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = uniquify(v, n, k);
    return out;
  }
  return value;
}

/** The fixture lines parsed; a line that is not JSON (hand-written broken ones) stays its text. */
export function fixtureRecords(source: SourceName): unknown[] {
  return fixtureLines(source).map((line) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return line;
    }
  });
}

/** Repetition `n` of a fixture record as a transcript line (see uniquify); a line that is not JSON as it was. */
export function repeatedLine(record: unknown, n: number): string {
  return typeof record === "string" ? record : JSON.stringify(uniquify(record, n));
}

/**
 * The most characters a bench corpus holds (BENCH_CORPUS_BYTES, default 64 MB): the sources' records differ in size
 * a hundredfold (claude-code's session records average 5 KB), and a corpus bounded by lines alone held over a
 * gigabyte of claude-code text, with its events, and exhausted the heap.
 */
export const CORPUS_MAX_CHARS = Number(process.env.BENCH_CORPUS_BYTES ?? 64 * 1024 ** 2);

/**
 * `minLines` transcript lines, built by repeating the fixtures with unique ids per repetition, or fewer where their
 * text would pass `maxChars` (at least one repetition of the fixtures, whatever its size).
 */
export function repeatedCorpus(source: SourceName, minLines: number, maxChars = CORPUS_MAX_CHARS): string[] {
  const base = fixtureRecords(source);
  if (base.length === 0) return [];
  const out: string[] = [];
  let chars = 0;
  for (let n = 0; out.length < minLines; n++) {
    for (const record of base) {
      const line = repeatedLine(record, n);
      if (n > 0 && chars + line.length > maxChars) return out;
      chars += line.length;
      out.push(line);
    }
  }
  return out;
}
