import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeEnv, codexBinaryPath, writeCodexHome } from "../../src/mock-model/agent-env.js";

describe("agent environments", () => {
  it("writeCodexHome points the mock provider at <baseUrl>/v1 with analytics and plugins off", async () => {
    const dir = await mkdtemp(join(tmpdir(), "codex-home-"));
    try {
      const env = await writeCodexHome(dir, "http://127.0.0.1:1234", {
        approvalPolicy: "untrusted",
        sandboxMode: "workspace-write",
        requestMaxRetries: 0,
      });
      expect(env).toEqual({ CODEX_HOME: dir, MOCK_API_KEY: "mock-api-key" });
      const toml = await readFile(join(dir, "config.toml"), "utf8");
      for (const line of [
        'model = "gpt-5.5"',
        'model_provider = "mock"',
        'approval_policy = "untrusted"',
        'sandbox_mode = "workspace-write"',
        'base_url = "http://127.0.0.1:1234/v1"',
        'env_key = "MOCK_API_KEY"',
        'wire_api = "responses"',
        "request_max_retries = 0",
        "[analytics]\nenabled = false",
        "[features]\nplugins = false",
      ]) {
        expect(toml).toContain(line);
      }
      expect(toml).not.toContain("stream_max_retries");
      // Top-level keys must come before the first table, or TOML files them under it.
      expect(toml.indexOf("approval_policy")).toBeLessThan(toml.indexOf("["));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("claudeEnv is a whole environment with the base URL without /v1 and the traffic switches", () => {
    const env = claudeEnv("http://127.0.0.1:1234/v1/", "/tmp/claude-config", { maxRetries: 0 });
    expect(env).toMatchObject({
      HOME: "/tmp/claude-config",
      CLAUDE_CONFIG_DIR: "/tmp/claude-config",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:1234",
      ANTHROPIC_API_KEY: "mock-api-key",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_MAX_RETRIES: "0",
    });
    expect(env.PATH).toBe(process.env.PATH);
  });

  it("codexBinaryPath resolves the pinned package's launcher", () => {
    const path = codexBinaryPath();
    expect(path).toMatch(/@openai\/codex\/bin\/codex\.js$/);
    expect(existsSync(path)).toBe(true);
  });
});
