import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { fixtureLines } from "../../bench/fixture-corpus.js";
import { RAW_PREVIEW_CHARS } from "../../src/kit/json-depth.js";
import { SOURCE_NAMES } from "../../src/kit/mapper.js";
import { deepObjectText, toolCallWith } from "../kit/support/deep-records.js";

// The real CLI as a user runs it: bin/provider-runtime.js runs the last build (npm ci builds it; `npm run build`).
const BIN = new URL("../../bin/provider-runtime.js", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "pr-normalize-input-"));
const running = new Set<ChildProcess>();
// a test that fails by its timeout leaves no CLI running behind it
afterEach(() => {
  for (const child of running) child.kill("SIGKILL");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Written {
  sequence: number;
  type: string;
  payload: { detail?: { reason?: string }; message?: string };
  raw?: { payload?: unknown };
  [key: string]: unknown;
}

interface Run {
  code: number | null;
  stderr: string;
  events: Written[];
}

/** Runs `normalize ARGS` with stdout to a file (outputs here reach hundreds of MB) and parses what it wrote. */
async function normalize(args: string[]): Promise<Run> {
  const outFile = join(dir, `out-${Math.random().toString(36).slice(2)}.jsonl`);
  const out = openSync(outFile, "w");
  let stderr = "";
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "normalize", ...args], { stdio: ["ignore", out, "pipe"] });
    running.add(child);
    child.once("exit", () => running.delete(child));
    child.stderr?.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    child.once("error", reject);
    child.once("close", resolve);
  });
  closeSync(out);
  const text = readFileSync(outFile, "utf8");
  rmSync(outFile);
  const events =
    text.length === 0
      ? []
      : text
          .trimEnd()
          .split("\n")
          .map((line) => JSON.parse(line) as Written);
  return { code, stderr, events };
}

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function isReason(event: Written, reason: string): boolean {
  return event.type === "runtime.warning" && event.payload.detail?.reason === reason;
}

function unnumbered(events: readonly Written[]): unknown[] {
  return events.map(({ eventId: _id, sequence: _sequence, ...rest }) => rest);
}

describe("normalize on hostile input (the real CLI)", () => {
  for (const source of SOURCE_NAMES) {
    it(`--from ${source}: a 10,000-deep line between valid lines is one warning; the valid lines map as without it`, async () => {
      const valid = fixtureLines(source).slice(0, 24);
      const deep = `{"t":"2026-01-01T00:00:00.000Z","dir":"in","msg":${toolCallWith(source, deepObjectText(10_000))}}`;
      const bareDeepArray = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
      const withDeep = write(
        `${source}-deep.jsonl`,
        `${[...valid.slice(0, 12), deep, ...valid.slice(12), bareDeepArray].join("\n")}\n`,
      );
      const without = write(`${source}-valid.jsonl`, `${valid.join("\n")}\n`);
      const [run, reference] = await Promise.all([
        normalize(["--from", source, withDeep]),
        normalize(["--from", source, without]),
      ]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(reference.code).toBe(0);
      const warnings = run.events.filter((event) => isReason(event, "too-deep"));
      expect(warnings).toHaveLength(2);
      expect(warnings[0]?.raw?.payload).toBe(deep.slice(0, RAW_PREVIEW_CHARS));
      expect(warnings[0]?.payload.message).toMatch(/line 13: nests deeper than 512 levels/);
      expect(warnings[1]?.raw?.payload).toBe("[".repeat(RAW_PREVIEW_CHARS));
      expect(run.events.map((event) => event.sequence)).toEqual(run.events.map((_, index) => index + 1));
      const rest = run.events.filter((event) => !isReason(event, "too-deep"));
      expect(unnumbered(rest)).toEqual(unnumbered(reference.events));
    });
  }

  for (const megabytes of [8, 64]) {
    it(`a ${megabytes} MB line without a line break maps whole`, async () => {
      const blob = "x".repeat(megabytes * 1_000_000 - 100);
      const file = write(
        `line-${megabytes}.jsonl`,
        `{"jsonrpc":"2.0","method":"x/unknown","params":{"blob":"${blob}"}}`,
      );
      const run = await normalize(["--from", "codex-app-server", file]);
      expect(run.code).toBe(0);
      expect(run.events).toHaveLength(1);
      const [event] = run.events;
      expect(event?.type).toBe("runtime.warning");
      expect(event?.payload.detail?.reason).toBe("unknown-kind");
      const payload = event?.raw?.payload as { params?: { blob?: string } } | undefined;
      expect(payload?.params?.blob === blob).toBe(true);
    });
  }

  it("a line over --max-line-bytes is one too-long warning holding its start; the next line still maps", async () => {
    const long = `{"jsonrpc":"2.0","method":"x/long","params":{"blob":"${"y".repeat(20_000)}"}}`;
    const next = '{"jsonrpc":"2.0","method":"x/next","params":{}}';
    const file = write("long-line.jsonl", `${long}\r\n${next}\n${long}`);
    const run = await normalize(["--from", "codex-app-server", "--max-line-bytes", "10000", file]);
    expect(run.code).toBe(0);
    expect(run.events.map((event) => event.payload.detail?.reason)).toEqual([
      "too-long",
      "unknown-kind",
      "too-long",
    ]);
    const [warning, mapped] = run.events;
    expect(warning?.raw?.payload).toBe(long.slice(0, RAW_PREVIEW_CHARS));
    expect(warning?.payload.message).toContain(
      `line 1: ${long.length} bytes long, over the maximum of 10000`,
    );
    expect(mapped?.raw?.payload).toEqual(JSON.parse(next));
    // the same line is read whole under the default maximum
    const whole = await normalize(["--from", "codex-app-server", file]);
    expect(whole.events.map((event) => event.payload.detail?.reason)).toEqual([
      "unknown-kind",
      "unknown-kind",
      "unknown-kind",
    ]);
  });

  it("--max-line-bytes takes a whole number of bytes above 0 (else exit 2)", async () => {
    const file = write("small.jsonl", "{}\n");
    for (const value of ["0", "-1", "1.5", "ten", ""]) {
      const run = await normalize(["--from", "acp", "--max-line-bytes", value, file]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--max-line-bytes/);
    }
  });
});
