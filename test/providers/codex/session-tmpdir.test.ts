import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockModelServer, startMockModel } from "../../../src/mock-model/index.js";
import { createCodexDriver } from "../../../src/providers/codex/driver.js";
import { driveTurns } from "./drive-turns.js";

let mock: MockModelServer;
let work: string;

beforeAll(async () => {
  mock = await startMockModel();
  work = await mkdtemp(join(tmpdir(), "codex-tmpdir-test-"));
});
afterAll(async () => {
  await mock.close();
  await rm(work, { recursive: true, force: true });
});

describe("codex app-server's TMPDIR (real codex, mock model)", () => {
  it("with a caller's CODEX_HOME, a sandboxed command leaves nothing in the host's TMPDIR", async () => {
    // The host's TMPDIR for this test alone: codex's sandbox helper keeps its mount-target registry
    // (codex-bwrap-synthetic-mount-targets-N/lock) in whatever TMPDIR codex has.
    const hostTmp = await mkdtemp(join(work, "host-tmp-"));
    const home = await mkdtemp(join(work, "codex-home-"));
    const outer = process.env.TMPDIR;
    process.env.TMPDIR = hostTmp;
    try {
      const driver = createCodexDriver({ cwd: work, modelBaseUrl: mock.baseUrl, env: { CODEX_HOME: home } });
      await driver.start();
      const events = await driveTurns(driver, ["mock:shell run a command"]);
      await driver.stop();
      const command = events.find(
        (e) => e.type === "item.completed" && e.payload.itemType === "command_execution",
      );
      expect(JSON.stringify(command?.payload)).toContain("mock-shell-output");
      expect(await readdir(hostTmp)).toEqual([]);
    } finally {
      process.env.TMPDIR = outer;
    }
  }, 60_000);
});
