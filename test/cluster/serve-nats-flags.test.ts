import { rmSync } from "node:fs";
import { expect, it } from "vitest";
import { CliProcess } from "../cli/support/cli-process.js";

async function serve(args: string[], env: Record<string, string> = {}) {
  const cli = new CliProcess(["serve", "--port", "0", ...args], { env });
  try {
    const code = await cli.exited;
    return { code, stderr: cli.stderr };
  } finally {
    rmSync(cli.tmp, { recursive: true, force: true });
  }
}

it("refuses NATS flags that cannot work, before touching anything, and never echoes a password", async () => {
  const noSecret = await serve(["--nats", "nats://node:hunter2-secret@127.0.0.1:1"]);
  expect(noSecret.code).toBe(2);
  expect(noSecret.stderr).toContain("--nats needs --cluster-secret-file");
  expect(noSecret.stderr).not.toContain("hunter2");
  for (const flag of ["--nats-creds", "--nats-tls-ca", "--nats-replicas", "--cluster-secret-file"]) {
    const stray = await serve([flag, "x"]);
    expect([stray.code, stray.stderr]).toEqual([2, expect.stringContaining(`${flag} goes with --nats`)]);
  }
  const half = await serve([
    "--nats",
    "nats://127.0.0.1:1",
    "--cluster-secret-file",
    "f",
    "--nats-tls-cert",
    "c",
  ]);
  expect(half.stderr).toContain("--nats-tls-cert and --nats-tls-key go together");
  const replicas = await serve([
    "--nats",
    "nats://127.0.0.1:1",
    "--cluster-secret-file",
    "f",
    "--nats-replicas",
    "9",
  ]);
  expect(replicas.stderr).toContain("--nats-replicas must be 1..5");
}, 60_000);
