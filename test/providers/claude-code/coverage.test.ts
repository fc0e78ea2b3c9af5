import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { claudeCodeCoverage } from "../../../src/providers/claude-code/definition.js";
import {
  CLAUDE_CODE_VERSION,
  PROGRESS_TYPES,
  SYSTEM_SUBTYPES,
} from "../../../src/providers/claude-code/record-kinds.js";
import { RECORD_KINDS } from "../../../src/providers/claude-code/record-table.js";
import { kindOf } from "../../../src/providers/claude-code/session-mapper.js";
import { installedSessionKinds } from "../../claude-code/installed-surface.js";
import {
  CLAUDE_CODE_FIXTURES,
  normalizeFile,
  RECORDED_SCENARIOS,
  sessionFile,
} from "../../claude-code/recordings.js";

const REAL_FILE = "/work/shared/fixtures/real/claude-code-session-2.1.38-spotter.jsonl";

describe("claude-code coverage", () => {
  const installed = installedSessionKinds();

  it("reads the installed Claude Code's record types, system subtypes and progress types off its binary", () => {
    expect(installed.recordTypes).toContain("file-history-snapshot");
    expect(installed.recordTypes).toContain("queue-operation");
    expect(installed.systemSubtypes).toContain("compact_boundary");
    expect(installed.systemSubtypes).toContain("stop_hook_summary");
    expect(installed.progressTypes).toContain("hook_progress");
    expect(installed.recordTypes.length).toBeGreaterThan(40);
  });

  it("knows every kind the installed Claude Code writes", () => {
    expect(installed.recordTypes.filter((type) => !Object.hasOwn(RECORD_KINDS, type))).toEqual([]);
    const subtypes = new Set<string>(SYSTEM_SUBTYPES);
    expect(installed.systemSubtypes.filter((subtype) => !subtypes.has(subtype))).toEqual([]);
    const progress = new Set<string>(PROGRESS_TYPES);
    expect(installed.progressTypes.filter((type) => !progress.has(type))).toEqual([]);
  });

  it(`knows every kind of the recorded files (written by Claude Code ${CLAUDE_CODE_VERSION})`, () => {
    const kinds = new Set<string>();
    const versions = new Set<string>();
    for (const file of readdirSync(CLAUDE_CODE_FIXTURES).filter((f) => /^[a-z0-9-]+\.jsonl$/.test(f)))
      for (const line of readFileSync(join(CLAUDE_CODE_FIXTURES, file), "utf8").split("\n").filter(Boolean)) {
        const record = JSON.parse(line) as Record<string, unknown>;
        kinds.add(kindOf(record));
        if (typeof record.version === "string") versions.add(record.version);
      }
    expect([...versions]).toEqual([CLAUDE_CODE_VERSION]);
    const listed = new Set(claudeCodeCoverage().kinds.map((row) => row.kind));
    expect([...kinds].filter((kind) => !listed.has(kind))).toEqual([]);
  });

  it("every event a recorded or real record yields is of a type its coverage row declares", async () => {
    // The kit's state semantics and the session's opening come with whatever record causes them.
    const derived = new Set([
      "session.state.changed",
      "session.started",
      "thread.started",
      "session.configured",
    ]);
    const rows = new Map(claudeCodeCoverage().kinds.map((row) => [row.kind, new Set<string>(row.yields)]));
    const files = [...RECORDED_SCENARIOS.map(sessionFile), ...(existsSync(REAL_FILE) ? [REAL_FILE] : [])];
    let checked = 0;
    for (const file of files)
      for (const line of await normalizeFile("claude-code", file, "s")) {
        const event = JSON.parse(line) as RuntimeEvent;
        const record = event.raw?.payload;
        if (event.raw?.source !== "claude.session-file" || typeof record !== "object" || record === null)
          continue;
        if (derived.has(event.type)) continue;
        if (event.type === "thread.state.changed" && event.payload.state !== "compacted") continue;
        const kind = kindOf(record as Record<string, unknown>);
        const declared = rows.get(kind) ?? rows.get(kind.split(":")[0] as string);
        checked++;
        expect({ kind, type: event.type, declared: declared?.has(event.type) }).toEqual({
          kind,
          type: event.type,
          declared: true,
        });
      }
    expect(checked).toBeGreaterThan(300);
  });

  it("lists every registry row with its yields, and nothing unhandled", () => {
    const coverage = claudeCodeCoverage();
    expect(coverage.unhandled).toEqual([]);
    for (const row of coverage.kinds) expect(row.yields.length).toBeGreaterThan(0);
    for (const type of Object.keys(RECORD_KINDS)) expect(coverage.kinds.map((r) => r.kind)).toContain(type);
  });
});
