import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** §12: `view FILE | head -1` and the like end quietly when the reader closes the pipe: no stack, exit 0. */

const REPO = resolve(import.meta.dirname, "../..");
const FIXTURES = join(REPO, "test/fixtures/codex");
let dir: string;
let events: string;
let transcript: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "closed-pipe-"));
  const golden = readdirSync(FIXTURES).find((name) => name.endsWith(".expected.jsonl")) as string;
  const recorded = golden.replace(".expected.jsonl", ".jsonl");
  // big enough that the output outlasts the pipe's buffer: the writes after `head` left must fail
  events = join(dir, "events.jsonl");
  writeFileSync(events, readFileSync(join(FIXTURES, golden), "utf8").repeat(400));
  transcript = join(dir, "transcript.jsonl");
  writeFileSync(transcript, readFileSync(join(FIXTURES, recorded), "utf8").repeat(400));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI, reads its first chunk of stdout and closes the pipe, like `| head -1`. */
function firstLineThenClose(args: string[]): Promise<{ code: number | null; stderr: string; first: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(REPO, "bin/provider-runtime.js"), ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let first = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdout.once("data", (chunk: Buffer) => {
      first = chunk.toString().split("\n")[0] ?? "";
      child.stdout.destroy();
    });
    child.on("close", (code) => done({ code, stderr, first }));
  });
}

describe("a closed stdout", () => {
  const commands: Array<[string, () => string[]]> = [
    ["view", () => ["view", events]],
    ["project", () => ["project", events]],
    ["verify", () => ["verify", events]],
    ["normalize", () => ["normalize", "--from", "codex-app-server", transcript]],
  ];
  for (const [name, args] of commands) {
    it(`${name} | head -1 ends with no stack trace`, async () => {
      const { code, stderr, first } = await firstLineThenClose(args());
      expect(first.length).toBeGreaterThan(0);
      expect(stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
      expect(code).toBe(0);
    }, 60_000);
  }
});
