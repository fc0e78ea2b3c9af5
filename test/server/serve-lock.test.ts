import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { CliProcess } from "../cli/support/cli-process.js";
import { ServeProcess } from "./support/serve-process.js";

afterEach(() => ServeProcess.stopAll());
afterAll(() => ServeProcess.removeDirs());

describe("serve: one server per data dir", () => {
  it("a second serve on the same --data refuses to start, naming the first's pid; the first keeps serving", async () => {
    const first = await ServeProcess.start();
    const second = new CliProcess(["serve", "--port", "0", "--data", first.data]);
    expect(await second.exited).toBe(1);
    expect(second.stdout).not.toMatch(/listening/);
    expect(second.stderr).toContain(`pid ${first.child.pid}`);
    expect(second.stderr.trim().split("\n")).toHaveLength(1);
    expect((await first.fetch("/v1/health")).status).toBe(200);
    expect(existsSync(join(first.data, "serve.lock"))).toBe(true);
  }, 60_000);

  it("a lock left by a killed server is taken over; a stopped server leaves none", async () => {
    const first = await ServeProcess.start();
    await first.crash();
    expect(existsSync(join(first.data, "serve.lock"))).toBe(true);
    const second = await ServeProcess.start({ data: first.data });
    expect((await second.fetch("/v1/health")).status).toBe(200);
    expect(await second.stop()).toBe(143);
    expect(existsSync(join(first.data, "serve.lock"))).toBe(false);
  }, 60_000);
});
