import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { RECORDED_SCENARIOS, sessionFile } from "../claude-code/recordings.js";
import { assistantDeltas, sessionFacts, warningReasons } from "../claude-code/session-facts.js";
import { CLI } from "./support/cli-process.js";

const REAL_FILE = "/work/shared/fixtures/real/claude-code-session-2.1.38-spotter.jsonl";
const dir = mkdtempSync(join(tmpdir(), "cli-claude-code-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built CLI with `args`: exit code and stdout. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `normalize --from claude-code FILE`, then `verify` of what it wrote: both through the built CLI. */
async function normalizeAndVerify(file: string): Promise<RuntimeEvent[]> {
  const normalized = await cli(["normalize", "--from", "claude-code", "--validate", file]);
  expect(normalized.stderr).toBe("");
  expect(normalized.code).toBe(0);
  const out = join(dir, `${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(out, normalized.stdout);
  const verified = await cli(["verify", out]);
  expect(verified.stderr).toMatch(/ 0 violations/);
  expect(verified.code).toBe(0);
  return normalized.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as RuntimeEvent);
}

const files = [...(existsSync(REAL_FILE) ? [REAL_FILE] : []), ...RECORDED_SCENARIOS.map(sessionFile)];

describe("provider-runtime normalize --from claude-code (the built CLI)", () => {
  it.each(files)(
    "%s: verify passes, no warning for a known kind, times from the records, turns = prompts, the file's text",
    async (file) => {
      const events = await normalizeAndVerify(file);
      const facts = await sessionFacts(file);
      expect(warningReasons(events).filter((reason) => reason !== "api-retry")).toEqual([]);
      for (const event of events) expect(facts.times).toContain(event.createdAt);
      expect(events.filter((e) => e.type === "turn.started")).toHaveLength(facts.prompts.length);
      expect(assistantDeltas(events)).toBe(facts.assistantText);
    },
  );

  it("a record type no version has is one runtime.warning with its raw; the run goes on (exit 0)", async () => {
    const file = join(dir, "drift.jsonl");
    writeFileSync(
      file,
      [
        '{"type":"user","sessionId":"s1","uuid":"u1","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi"}}',
        '{"type":"hologram","sessionId":"s1","timestamp":"2026-01-01T00:00:01.000Z"}',
        '{"type":"hologram","sessionId":"s1","timestamp":"2026-01-01T00:00:02.000Z"}',
        '{"type":"assistant","sessionId":"s1","uuid":"a1","timestamp":"2026-01-01T00:00:03.000Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"hello"}]}}',
      ].join("\n"),
    );
    const events = await normalizeAndVerify(file);
    const warnings = events.filter((e) => e.type === "runtime.warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.raw?.payload).toEqual({
      type: "hologram",
      sessionId: "s1",
      timestamp: "2026-01-01T00:00:01.000Z",
    });
    expect(assistantDeltas(events)).toBe("hello");
  });
});
