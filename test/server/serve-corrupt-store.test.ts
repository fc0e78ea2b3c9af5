import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CliProcess, privateTmp, removePrivateTmps } from "../cli/support/cli-process.js";

afterAll(removePrivateTmps);

describe("serve over a damaged store.db", () => {
  it("exits 1 with one line naming the file and what to do, no stack", async () => {
    const tmp = privateTmp();
    const data = join(tmp, "data");
    mkdirSync(data);
    // hand-written: a file that is not a database where store.db should be
    writeFileSync(join(data, "store.db"), "not a database ".repeat(400));
    const serve = new CliProcess(["serve", "--port", "0", "--data", data], { tmp });
    expect(await serve.exited).toBe(1);
    const lines = serve.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(join(data, "store.db"));
    expect(lines[0]).toMatch(/move it aside/);
  }, 60_000);
});
