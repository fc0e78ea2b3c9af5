import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServeProcess } from "../server/support/serve-process.js";

/**
 * §12: examples/python/host.py, a host with Python's standard library only, run by Debian's python3 against a
 * real `serve --mock`: create, stream, approve, a second turn over a reconnected stream (Last-Event-ID), stop.
 */

const run = promisify(execFile);
const HOST = resolve(import.meta.dirname, "../../examples/python/host.py");
const PYTHON = "/usr/bin/python3";
const TOKEN = "python-host-token-0123456789abcdef";
let server: ServeProcess;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "python-host-"));
  server = await ServeProcess.start({ token: TOKEN, extra: ["--mock", "--root", root] });
});

afterAll(async () => {
  await server?.stop();
  ServeProcess.removeDirs();
  rmSync(root, { recursive: true, force: true });
});

describe("examples/python/host.py", () => {
  it("drives a session: create, stream, approve, second turn after a reconnect, stop", async () => {
    const { stdout } = await run(PYTHON, ["-I", HOST, server.url, root], {
      env: { PATH: process.env.PATH ?? "", PROVIDER_RUNTIME_TOKEN: TOKEN },
      timeout: 120_000,
    });
    const summary = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
    expect(summary).toMatchObject({ turns: 2, approved: 1, inOrderOnce: true, state: "stopped" });
    expect(summary.reconnectedAfter).toBeGreaterThan(5);
    expect(summary.events).toBeGreaterThan(summary.reconnectedAfter);
    expect(stdout).toMatch(/request\.opened/);
    expect(stdout.match(/turn\.completed/g)).toHaveLength(2);
    // the server holds exactly the events the host saw, and the stream it stored passes as one session
    const page = await server.json<{ events: Array<{ sequence: number }> }>(
      `/v1/sessions/${summary.session}/events`,
    );
    expect(page.body.events.length).toBeGreaterThanOrEqual(summary.events);
  }, 180_000);
});
