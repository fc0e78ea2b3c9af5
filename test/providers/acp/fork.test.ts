import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RuntimeDriver, UnknownTurnError, UnsupportedError } from "../../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { type MockModelServer, startMockModel } from "../../../src/mock-model/server.js";
import {
  acpAgentCommand,
  type KnownAcpAgent,
  OWNED_STATE_DIR_ENV,
} from "../../../src/providers/acp/agent-commands.js";
import { createAcpDriver } from "../../../src/providers/acp/driver.js";
import { verifyEvents } from "../../../src/verify/index.js";
import { until } from "../../support/until.js";

/**
 * `fork()` on the ACP driver itself (what chat's `/fork` calls), with the real agents against the mock model: a
 * state dir the parent owns is copied for the fork, so the fork runs on after the parent has stopped and removed
 * its own.
 */

let mock: MockModelServer;
let cwd: string;
/** Every driver started here: stopped at the end whatever happened (their state dirs go with them). */
const drivers: RuntimeDriver[] = [];

beforeAll(async () => {
  mock = await startMockModel();
  cwd = await mkdtemp(join(tmpdir(), "acp-fork-test-"));
});
afterAll(async () => {
  await Promise.all(drivers.map((driver) => driver.stop()));
  await mock.close();
  await rm(cwd, { recursive: true, force: true });
});

/** A started driver whose events are gathered as they come. */
async function started(driver: RuntimeDriver): Promise<RuntimeEvent[]> {
  const events: RuntimeEvent[] = [];
  drivers.push(driver);
  void (async () => {
    for await (const event of driver.events) events.push(event);
  })();
  await driver.start();
  return events;
}

async function launched(agent: KnownAcpAgent, sessionId: string) {
  // no stateDir: the agent's state goes in a temp dir the driver owns and removes at its end
  const launch = await acpAgentCommand(agent, { modelBaseUrl: mock.baseUrl });
  const driver = createAcpDriver({ cwd, sessionId, agentCommand: launch.command, env: launch.env });
  return { driver, events: await started(driver), stateDir: launch.env[OWNED_STATE_DIR_ENV] as string };
}

async function turn(driver: RuntimeDriver, events: RuntimeEvent[], text: string): Promise<string> {
  const before = events.filter((e) => e.type === "turn.completed").length;
  await driver.sendTurn({ text });
  const done = () => events.filter((e) => e.type === "turn.completed");
  expect(await until(() => done().length > before, 120_000)).toBe(true);
  return done().at(-1)?.turnId as string;
}

function turnRequestsWith(word: string): string[] {
  const sideRequest = (body: unknown) =>
    (body as { output_config?: { format?: unknown } } | undefined)?.output_config?.format !== undefined;
  return mock.requests
    .filter((r) => !sideRequest(r.body))
    .map((r) => JSON.stringify(r.body ?? ""))
    .filter((body) => body.includes(word));
}

async function forkDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith("acp-fork-") && !cwd.endsWith(name));
}

describe("ACP driver fork()", () => {
  it("claude-agent-acp: the whole conversation in a copy of the parent's state; an earlier turn is refused", async () => {
    const tag = `drv${Date.now()}`;
    const [alpha, beta, gamma] = ["alpha", "beta", "gamma"].map((w) => `${w}${tag}`) as [
      string,
      string,
      string,
    ];
    const dirsBefore = await forkDirs();
    const parent = await launched("claude-agent-acp", "acp-fork-parent");
    expect(parent.driver.capabilities.fork).toBe(true);
    const first = await turn(parent.driver, parent.events, `mock:text ${alpha}`);
    const last = await turn(parent.driver, parent.events, `mock:text ${beta}`);

    await expect(parent.driver.fork({ afterTurnId: first })).rejects.toThrow(UnsupportedError);
    await expect(parent.driver.fork({ afterTurnId: first })).rejects.toThrow(/whole conversation/);
    await expect(parent.driver.fork({ afterTurnId: "turn_nosuchturn" })).rejects.toThrow(UnknownTurnError);

    const fork = await parent.driver.fork({ afterTurnId: last, options: { sessionId: "acp-fork-child" } });
    const forkEvents = await started(fork);
    expect(forkEvents.find((e) => e.type === "session.started")?.payload.forkedFrom).toEqual({
      sessionId: "acp-fork-parent",
      turnId: last,
    });
    // the parent ends, its state dir with it: the fork has its own copy
    await parent.driver.stop();
    expect(existsSync(parent.stateDir)).toBe(false);
    expect((await forkDirs()).length).toBe(dirsBefore.length + 1);

    await turn(fork, forkEvents, `mock:text ${gamma}`);
    const saw = turnRequestsWith(gamma);
    expect(saw.length).toBeGreaterThan(0);
    for (const request of saw) {
      expect(request).toContain(alpha);
      expect(request).toContain(beta);
    }
    await fork.stop();
    expect(await forkDirs()).toEqual(dirsBefore);
    expect(verifyEvents(forkEvents)).toEqual([]);
    expect(verifyEvents(parent.events)).toEqual([]);
  }, 300_000);

  it("copilot (no sessionCapabilities.fork): capabilities.fork false, fork() an UnsupportedError naming it", async () => {
    const parent = await launched("copilot", "acp-fork-copilot");
    expect(parent.driver.capabilities.fork).toBe(false);
    await expect(parent.driver.fork()).rejects.toThrow(UnsupportedError);
    await expect(parent.driver.fork()).rejects.toThrow(/Copilot .*does not offer session\/fork/);
    await parent.driver.stop();
  }, 300_000);
});
