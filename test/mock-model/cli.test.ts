import { describe, expect, it } from "vitest";
import { runMockModelCommand } from "../../src/mock-model/cli.js";

function captureIo() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (text: string) => out.push(text) },
      stderr: { write: (text: string) => err.push(text) },
    },
    stdout: () => out.join(""),
    stderr: () => err.join(""),
  };
}

describe("provider-runtime mock-model", () => {
  it("--help prints usage and exits 0", async () => {
    const capture = captureIo();
    expect(await runMockModelCommand(["--help"], capture.io)).toBe(0);
    expect(capture.stdout()).toContain("Usage: provider-runtime mock-model");
    expect(capture.stdout()).toContain("error-429");
  });

  it.each([["--bogus"], ["--port"], ["--port", "70000"], ["--ttl", "0"], ["--scenario", "nope"], ["extra"]])(
    "a usage error (%s) exits 2",
    async (...argv) => {
      const capture = captureIo();
      expect(await runMockModelCommand(argv, capture.io)).toBe(2);
      expect(capture.stderr()).toContain("mock-model:");
    },
  );

  it("prints the base URL, serves until stopped, then exits 0", async () => {
    const capture = captureIo();
    const controller = new AbortController();
    const exit = runMockModelCommand(["--scenario", "error-429"], capture.io, { signal: controller.signal });
    await expect.poll(() => capture.stdout()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
    const baseUrl = capture.stdout().trim();
    const response = await fetch(`${baseUrl}/v1/responses`, {
      method: "POST",
      body: '{"tools":[{"type":"function","name":"f"}]}',
    });
    expect(response.status).toBe(429);
    controller.abort();
    expect(await exit).toBe(0);
  });

  it("stops by itself after --ttl", async () => {
    const capture = captureIo();
    expect(await runMockModelCommand(["--ttl=0.05"], capture.io)).toBe(0);
    expect(capture.stdout()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
  });
});
