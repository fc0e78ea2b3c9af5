import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { verifyEvents } from "../../src/verify/index.js";
import { CliProcess, privateTmp, processesWithTmpdir, removePrivateTmps } from "./support/cli-process.js";

afterAll(removePrivateTmps);

const until = async (condition: () => boolean, timeoutMs = 10_000) => {
  for (let waited = 0; waited < timeoutMs && !condition(); waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  return condition();
};

describe("run under SIGINT / SIGTERM (real codex app-server, mock model, a long turn)", () => {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    it(`${signal} mid-turn: exit ${code}, session.exited last, no stack, no scratch dir, no process left`, async () => {
      const tmp = privateTmp();
      const record = join(tmp, "transcript.jsonl");
      const run = new CliProcess(
        [
          "run",
          "--provider",
          "codex",
          "--mock",
          "--approve",
          "accept",
          "--json",
          "--record",
          record,
          "mock:long go",
        ],
        { tmp },
      );
      await run.waitFor("out", /"type":"content\.delta"/);
      expect(processesWithTmpdir(run.tmp).length).toBeGreaterThan(1); // the CLI and codex
      run.child.kill(signal);
      expect(await run.exited).toBe(code);
      const events = run.events();
      expect(events.at(-1)?.type).toBe("session.exited");
      expect(events.some((e) => e.type === "turn.completed")).toBe(true);
      expect(verifyEvents(events)).toEqual([]);
      expect(run.stderr).toMatch(new RegExp(`${signal}: stopping the session`));
      expect(run.stderr).not.toMatch(/AbortError|\n\s+at /);
      expect(readdirSync(run.tmp).filter((name) => name.startsWith("provider-runtime-"))).toEqual([]);
      expect(statSync(record).mode & 0o777).toBe(0o600);
      expect(await until(() => processesWithTmpdir(run.tmp).length === 0)).toBe(true);
    });
  }
});

describe("run killed by SIGKILL (real codex app-server, mock model, a long turn)", () => {
  it("its scratch dir (provider-runtime-run-*) and every process of it are gone soon after", async () => {
    const run = new CliProcess(["run", "--provider", "codex", "--mock", "--json", "mock:long go"]);
    await run.waitFor("out", /"type":"content\.delta"/);
    expect(readdirSync(run.tmp).filter((name) => name.startsWith("provider-runtime-run-"))).toHaveLength(1);
    run.child.kill("SIGKILL");
    await run.exited;
    const leftovers = () => readdirSync(run.tmp).filter((name) => name.startsWith("provider-runtime-"));
    expect(await until(() => leftovers().length === 0, 20_000), leftovers().join(", ")).toBe(true);
    expect(await until(() => processesWithTmpdir(run.tmp).length === 0, 20_000)).toBe(true);
  }, 60_000);
});
