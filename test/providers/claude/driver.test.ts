import { existsSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RuntimeDriver, UnknownRequestError } from "../../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { type MockModelServer, startMockModel } from "../../../src/mock-model/index.js";
import { type ClaudeDriverOptions, createClaudeDriver } from "../../../src/providers/claude/driver.js";
import { verifyEvents } from "../../../src/verify/index.js";
import { CLAUDE_SCENARIOS, runClaudeScenario } from "./scenario-runner.js";
import { readEntries, replay } from "./test-helpers.js";

const require = createRequire(import.meta.url);
const BUNDLED_BINARY = join(
  dirname(require.resolve("@anthropic-ai/claude-agent-sdk")),
  "..",
  "claude-agent-sdk-linux-x64",
  "claude",
);

let mock: MockModelServer;
let work: string;
beforeAll(async () => {
  mock = await startMockModel();
  work = await mkdtemp(join(tmpdir(), "claude-driver-test-"));
});
afterAll(async () => {
  await mock.close();
  await rm(work, { recursive: true, force: true });
});

function driverFor(extra: Partial<ClaudeDriverOptions> = {}, transcript: string[] = []): RuntimeDriver {
  return createClaudeDriver({
    cwd: work,
    modelBaseUrl: mock.baseUrl,
    record: (line) => transcript.push(line),
    ...extra,
  });
}

/** Reads events until `until` says stop (returns the events so far) or the stream ends. */
async function readUntil(
  driver: RuntimeDriver,
  events: RuntimeEvent[],
  until: (e: RuntimeEvent) => boolean,
): Promise<RuntimeEvent | undefined> {
  for await (const event of driver.events) {
    events.push(event);
    if (until(event)) return event;
  }
  return undefined;
}

const scenario = (name: string) => CLAUDE_SCENARIOS.find((s) => s.name === name) ?? { name, prompts: [] };

describe("claude driver (real Claude Code against the mock model)", () => {
  it("runs the shell scenario with an approval round trip, and its transcript replays to the same events", async () => {
    const transcript: string[] = [];
    const driver = driverFor({ sessionId: "drv-shell" }, transcript);
    const events: RuntimeEvent[] = [];
    await driver.start();
    await driver.sendTurn({ text: "mock:shell run a command" });
    const opened = await readUntil(driver, events, (e) => e.type === "request.opened");
    expect(opened?.payload).toMatchObject({ requestType: "command_execution_approval" });
    await driver.respond(opened?.requestId ?? "", { decision: "accept" });
    await expect(driver.respond(opened?.requestId ?? "", { decision: "accept" })).rejects.toBeInstanceOf(
      UnknownRequestError,
    );
    await readUntil(driver, events, (e) => e.type === "turn.completed");
    await driver.stop();
    await readUntil(driver, events, () => false);

    // The session and its thread start before the first turn, which already carries the thread.
    const firstTypes = events.slice(0, 3).map((e) => e.type);
    expect(firstTypes).toEqual(["session.started", "thread.started", "turn.started"]);
    expect(events[2]?.threadId).toBeDefined();
    expect(events[2]?.threadId).toBe(events[1]?.threadId);
    const threadIds = new Set(events.map((e) => e.threadId).filter((id) => id !== undefined));
    expect(threadIds).toEqual(new Set([events[1]?.threadId]));

    const resolved = events.find((e) => e.type === "request.resolved");
    expect(resolved?.payload).toMatchObject({ decision: "accept" });
    const command = events.find(
      (e) => e.type === "item.completed" && e.payload.itemType === "command_execution",
    );
    expect(command?.payload).toMatchObject({ status: "completed", data: { output: "mock-shell-output" } });
    expect(events.find((e) => e.type === "turn.completed")?.payload).toMatchObject({ state: "completed" });
    expect(events.at(-1)?.type).toBe("session.exited");
    expect(verifyEvents(events)).toEqual([]);
    const replayed = replay(readEntries(transcript.join("\n")), "drv-shell");
    expect(replayed.map((e) => e.type)).toEqual(events.slice(0, replayed.length).map((e) => e.type));
  });

  it("answers AskUserQuestion: user-input.requested → resolved, answers returned to Claude", async () => {
    const { events } = await runClaudeScenario(scenario("question"));
    const requested = events.find((e) => e.type === "user-input.requested");
    const resolved = events.find((e) => e.type === "user-input.resolved");
    expect(requested).toBeDefined();
    expect(resolved?.payload.answers).toEqual({ "Which colour should the mock use?": "Green" });
    const tool = events.find((e) => e.type === "item.completed" && e.payload.title === "AskUserQuestion");
    expect(JSON.stringify(tool?.payload)).toContain("Green");
    expect(verifyEvents(events)).toEqual([]);
  });

  it("links subagent items to the Agent item", async () => {
    const { events } = await runClaudeScenario(scenario("subagent"));
    const agent = events.find(
      (e) => e.type === "item.started" && e.payload.itemType === "collab_agent_tool_call",
    );
    const children = events.filter((e) => e.type === "item.started" && e.parentItemId !== undefined);
    expect(children.length).toBeGreaterThan(0);
    for (const child of children) expect(child.parentItemId).toBe(agent?.itemId);
  });

  it("stop() with a pending approval resolves it as cancel and ends turn and session", async () => {
    const driver = driverFor();
    const events: RuntimeEvent[] = [];
    await driver.start();
    await driver.sendTurn({ text: "mock:shell run a command" });
    const opened = await readUntil(driver, events, (e) => e.type === "request.opened");
    await driver.stop();
    await readUntil(driver, events, () => false);
    const resolved = events.filter((e) => e.type === "request.resolved");
    expect(resolved).toHaveLength(1);
    expect(resolved[0]?.requestId).toBe(opened?.requestId);
    expect(resolved[0]?.payload.decision).toBe("cancel");
    expect(events.filter((e) => e.type === "turn.completed")).toHaveLength(1);
    expect(events.at(-1)?.type).toBe("session.exited");
    expect(verifyEvents(events)).toEqual([]);
    await expect(driver.respond(opened?.requestId ?? "", { decision: "accept" })).rejects.toBeInstanceOf(
      UnknownRequestError,
    );
  });

  it("interrupt() during a pending approval cancels it and the turn ends interrupted", async () => {
    const driver = driverFor();
    const events: RuntimeEvent[] = [];
    await driver.start();
    await driver.sendTurn({ text: "mock:shell run a command" });
    await readUntil(driver, events, (e) => e.type === "request.opened");
    await driver.interrupt();
    await readUntil(driver, events, (e) => e.type === "turn.completed");
    await driver.stop();
    await readUntil(driver, events, () => false);
    expect(events.find((e) => e.type === "request.resolved")?.payload.decision).toBe("cancel");
    expect(events.filter((e) => e.type === "turn.completed").map((e) => e.payload)).toEqual([
      expect.objectContaining({ state: "interrupted" }),
    ]);
    expect(verifyEvents(events)).toEqual([]);
  });

  it("resumes a session by its Claude session id", async () => {
    const configDir = await mkdtemp(join(tmpdir(), "claude-resume-"));
    try {
      const first = driverFor({ env: { CLAUDE_CONFIG_DIR: configDir } });
      const events: RuntimeEvent[] = [];
      await first.start();
      await first.sendTurn({ text: "mock:text first" });
      await readUntil(first, events, (e) => e.type === "turn.completed");
      await first.stop();
      const thread = events.find((e) => e.type === "thread.started");
      const nativeId = thread?.type === "thread.started" ? String(thread.payload.providerThreadId) : "";
      const second = driverFor({ env: { CLAUDE_CONFIG_DIR: configDir }, resume: nativeId });
      const resumed: RuntimeEvent[] = [];
      await second.start();
      await second.sendTurn({ text: "mock:text second" });
      await readUntil(second, resumed, (e) => e.type === "turn.completed");
      await second.stop();
      expect(resumed.find((e) => e.type === "turn.completed")?.payload).toMatchObject({ state: "completed" });
      expect(resumed.find((e) => e.type === "session.configured")?.providerRefs?.providerThreadId).toBe(
        nativeId,
      );
      // the resumed session names the same Claude session from its first prompt: one thread throughout
      expect(resumed.find((e) => e.type === "turn.started")?.threadId).toBe(
        resumed.find((e) => e.type === "thread.started")?.threadId,
      );
      expect(new Set(resumed.map((e) => e.threadId).filter((id) => id !== undefined)).size).toBe(1);
    } finally {
      await rm(configDir, { recursive: true, force: true });
    }
  });

  it("respond() to an unknown request id rejects", async () => {
    const driver = driverFor();
    await driver.start();
    await expect(driver.respond("req_nope", { decision: "accept" })).rejects.toBeInstanceOf(
      UnknownRequestError,
    );
    await driver.stop();
  });

  it.skipIf(process.getuid?.() !== 0)(
    "bypassPermissions as root: IS_SANDBOX=1 is set (with a warning), and the command runs unasked",
    async () => {
      const driver = driverFor({ permissionMode: "bypassPermissions" });
      const events: RuntimeEvent[] = [];
      await driver.start();
      await driver.sendTurn({ text: "mock:shell run a command" });
      await readUntil(driver, events, (e) => e.type === "turn.completed" || e.type === "request.opened");
      await driver.stop();
      await readUntil(driver, events, () => false);
      expect(events[0]).toMatchObject({
        type: "runtime.warning",
        payload: { detail: { reason: "root-bypass-permissions" } },
      });
      expect(events.some((e) => e.type === "request.opened")).toBe(false);
      expect(events.find((e) => e.type === "turn.completed")?.payload).toMatchObject({ state: "completed" });
      expect(
        events.some((e) => e.type === "item.completed" && e.payload.itemType === "command_execution"),
      ).toBe(true);
      expect(verifyEvents(events)).toEqual([]);
    },
  );

  describe("faults (through a wrapper around the bundled binary)", () => {
    it("finds the Claude Code binary the SDK bundles", () => {
      expect(existsSync(BUNDLED_BINARY)).toBe(true);
    });

    async function wrapper(name: string, before: string): Promise<{ path: string; pidFile: string }> {
      const pidFile = join(work, `${name}.pid`);
      const path = join(work, `${name}.sh`);
      await writeFile(path, `#!/bin/sh\necho $$ > '${pidFile}'\n${before}\nexec '${BUNDLED_BINARY}' "$@"\n`);
      await chmod(path, 0o755);
      return { path, pidFile };
    }

    it("the process killed mid-turn: request cancelled, turn failed, session exited with an error", async () => {
      const { path, pidFile } = await wrapper("killed", "");
      const driver = driverFor({ pathToClaudeCodeExecutable: path });
      const events: RuntimeEvent[] = [];
      await driver.start();
      await driver.sendTurn({ text: "mock:shell run a command" });
      await readUntil(driver, events, (e) => e.type === "request.opened");
      process.kill(Number((await readFile(pidFile, "utf8")).trim()), "SIGKILL");
      await readUntil(driver, events, () => false);
      expect(events.find((e) => e.type === "request.resolved")?.payload.decision).toBe("cancel");
      expect(events.find((e) => e.type === "turn.completed")?.payload).toMatchObject({ state: "failed" });
      expect(events.some((e) => e.type === "runtime.error")).toBe(true);
      expect(events.at(-1)?.payload).toMatchObject({ exitKind: "error" });
      expect(verifyEvents(events)).toEqual([]);
      await driver.stop();
    });

    it("garbage on stdout: the SDK skips the line; the session goes on and ends in terminal events", async () => {
      const { path } = await wrapper("garbage", "echo 'this is not JSON'");
      const driver = driverFor({ pathToClaudeCodeExecutable: path, startTimeoutMs: 15_000 });
      const events: RuntimeEvent[] = [];
      await driver.start();
      await driver.sendTurn({ text: "mock:text hello" });
      await readUntil(driver, events, (e) => e.type === "turn.completed" || e.type === "session.exited");
      await driver.stop();
      await readUntil(driver, events, () => false);
      expect(events.find((e) => e.type === "turn.completed")?.payload).toMatchObject({ state: "completed" });
      expect(events.at(-1)?.type).toBe("session.exited");
      expect(verifyEvents(events)).toEqual([]);
    });
  });
});
