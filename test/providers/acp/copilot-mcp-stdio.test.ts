import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { UnsupportedError } from "../../../src/contracts/driver.js";
import { type MockModelServer, startMockModel } from "../../../src/mock-model/index.js";
import { acpAgentCommand } from "../../../src/providers/acp/agent-commands.js";
import { createAcpDriver } from "../../../src/providers/acp/driver.js";

/**
 * The real Copilot CLI drops a stdio MCP server given on `session/new` and answers as if it took it (only its log
 * says "Rejecting non-http/sse MCP server"): the driver refuses one before any prompt, with the reason.
 */
let mock: MockModelServer;
let cwd: string;
beforeAll(async () => {
  mock = await startMockModel();
  cwd = await mkdtemp(join(tmpdir(), "pr-copilot-mcp-"));
});
afterAll(async () => {
  await mock.close();
  await rm(cwd, { recursive: true, force: true });
});

it("refuses a stdio MCP server for copilot (UnsupportedError naming it), before any model request", async () => {
  const launch = await acpAgentCommand("copilot", { modelBaseUrl: mock.baseUrl });
  const driver = createAcpDriver({
    cwd,
    modelBaseUrl: mock.baseUrl,
    agentCommand: launch.command,
    env: launch.env,
    mcpServers: [
      {
        name: "echo",
        command: process.execPath,
        args: [fileURLToPath(new URL("../../support/mcp-echo-server.mjs", import.meta.url))],
      },
    ],
  });
  const events = (async () => {
    for await (const _event of driver.events) {
      // drained until the driver ends
    }
  })();
  const started = await driver.start().then(
    () => undefined,
    (error: unknown) => error,
  );
  await driver.stop().catch(() => undefined);
  await events;
  expect(started).toBeInstanceOf(UnsupportedError);
  expect(String((started as Error).message)).toMatch(/Copilot 1\.0\.\d+ drops stdio MCP servers.*"echo"/);
  expect(mock.requests).toEqual([]);
}, 90_000);
