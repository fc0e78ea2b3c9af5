import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { memoryIo } from "../support/memory-io.js";

const eventsOf = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as RuntimeEvent);

/** Runs `body` with TMPDIR a fresh dir; what is left in it once `body` has settled (the dir is then removed). */
async function inOwnTmpdir<T>(body: () => Promise<T>): Promise<{ result: T; left: string[] }> {
  const outer = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), "pr-run-test-"));
  process.env.TMPDIR = dir;
  try {
    const result = await body();
    return { result, left: readdirSync(dir) };
  } finally {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("provider-runtime run (real codex app-server, mock model)", () => {
  it("--approve decline: the command does not run and the turn still completes", async () => {
    const io = memoryIo();
    const code = await main(
      ["run", "--provider", "codex", "--mock", "--approve", "decline", "--json", "mock:shell run a command"],
      io,
    );
    expect(code).toBe(0);
    const events = eventsOf(io.out());
    const resolved = events.find((e) => e.type === "request.resolved");
    expect(resolved?.type === "request.resolved" && resolved.payload.decision).toBe("decline");
    expect(events.some((e) => e.type === "content.delta" && e.payload.streamKind === "command_output")).toBe(
      false,
    );
  });

  it("exits 1 when the model fails the turn, with the driver's temp dirs already removed", async () => {
    const io = memoryIo();
    const code = await inOwnTmpdir(() =>
      main(["run", "--provider", "codex", "--mock", "--json", "mock:error-500 fail"], io),
    );
    expect(code).toEqual({ result: 1, left: [] });
    const events = eventsOf(io.out());
    expect(events.some((e) => e.type === "runtime.error")).toBe(true);
    expect(events.at(-1)?.type).toBe("session.exited");
  });

  it("usage errors: unknown provider, acp without --agent, no prompt, bad --approve", async () => {
    for (const argv of [
      ["run", "--provider", "nope", "x"],
      ["run", "--provider", "acp", "x"],
      ["run", "--provider", "codex"],
      ["run", "--provider", "codex", "--approve", "maybe", "x"],
    ]) {
      const io = memoryIo();
      expect(await main(argv, io)).toBe(2);
    }
  });

  it("--approve ask off a terminal is a usage error, not a wait for input that never comes", async () => {
    const io = memoryIo("y\n");
    expect(await main(["run", "--provider", "codex", "--mock", "--approve", "ask", "mock:shell x"], io)).toBe(
      2,
    );
    expect(io.err()).toMatch(/--approve ask needs stdin to be a terminal/);
  });

  it("chat off a terminal is a usage error", async () => {
    const io = memoryIo("hello\n");
    expect(await main(["chat", "--provider", "codex", "--mock"], io)).toBe(2);
    expect(io.err()).toMatch(/chat needs a terminal/);
  });

  it("codex-sdk cannot ask: decline, ask and the default are usage errors naming why", async () => {
    for (const approve of [["--approve", "decline"], ["--approve", "ask"], []]) {
      const io = { ...memoryIo(), stdinIsTTY: approve.length === 0 };
      expect(await main(["run", "--provider", "codex-sdk", "--mock", ...approve, "mock:shell x"], io)).toBe(
        2,
      );
      expect(io.err()).toMatch(/exec has no approval channel.*--approve accept/);
    }
  });
});
