import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { until } from "../support/until.js";
import { ServeProcess } from "./support/serve-process.js";

// `serve --known-agents-only`: a token holder drives agents but cannot name a program for the server to run.
const TOKEN = "known-agents-token";
const work = mkdtempSync(join(tmpdir(), "known-agents-"));
const MCP_ECHO = {
  name: "echo",
  command: process.execPath,
  args: [fileURLToPath(new URL("../support/mcp-echo-server.mjs", import.meta.url))],
};

afterAll(async () => {
  await ServeProcess.stopAll();
  await ServeProcess.removeDirs();
  rmSync(work, { recursive: true, force: true });
});

const create = (server: ServeProcess, body: Record<string, unknown>) =>
  server.json<{ id?: string; error?: string; field?: string }>("/v1/sessions", {
    method: "POST",
    json: body,
  });

describe("serve --known-agents-only", () => {
  it("refuses a host's command line and stdio MCP server (403 naming the field), runs an installed adapter", async () => {
    const server = await ServeProcess.start({ token: TOKEN, extra: ["--mock", "--known-agents-only"] });
    const marker = join(work, "ran-with-the-flag");
    const shell = await create(server, { provider: "acp", agent: ["sh", "-c", `touch ${marker}`] });
    expect([shell.status, shell.body.field]).toEqual([403, "agent"]);
    const extended = await create(server, { provider: "acp", agent: ["codex-acp", "--config", "x"] });
    expect([extended.status, extended.body.field]).toEqual([403, "agent"]);
    const mcp = await create(server, { provider: "codex", mcpServers: [MCP_ECHO] });
    expect([mcp.status, mcp.body.field]).toEqual([403, "mcpServers"]);
    expect(mcp.body.error).toContain("echo");
    const http = await create(server, {
      provider: "codex",
      mcpServers: [{ name: "remote", url: "http://127.0.0.1:9/mcp" }],
    });
    expect(http.status).toBe(201);
    const adapter = await create(server, { provider: "acp", agent: ["codex-acp"] });
    expect(adapter.status).toBe(201);
    const listed = await server.json<{ sessions: unknown[] }>("/v1/sessions");
    expect(listed.body.sessions).toHaveLength(2);
    expect(existsSync(marker)).toBe(false);
    expect(await server.stop()).toBe(143);
  }, 120_000);

  it("without it, the same command line runs (what the flag is for)", async () => {
    const server = await ServeProcess.start({ token: TOKEN, extra: ["--mock"] });
    const marker = join(work, "ran-without-the-flag");
    const shell = await create(server, { provider: "acp", agent: ["sh", "-c", `touch ${marker}`] });
    expect(shell.status).toBe(201);
    expect(await until(() => existsSync(marker), 30_000)).toBe(true);
    expect(await server.stop()).toBe(143);
  }, 120_000);
});
