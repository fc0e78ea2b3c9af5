import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DriverOptions } from "../../../src/contracts/driver.js";
import { UnknownRequestError } from "../../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import { codexBinaryPath } from "../../../src/mock-model/agent-env.js";
import { type MockModelServer, startMockModel } from "../../../src/mock-model/index.js";
import { type CodexAppServerDriver, createCodexDriver } from "../../../src/providers/codex/driver.js";
import { verifyEvents } from "../../../src/verify/index.js";
import { driveTurns } from "./drive-turns.js";
import { replayCodexAppServer } from "./replay.js";

let mock: MockModelServer;
let work: string;

beforeAll(async () => {
  mock = await startMockModel();
  work = await mkdtemp(join(tmpdir(), "codex-driver-test-"));
});
afterAll(async () => {
  await mock.close();
  await rm(work, { recursive: true, force: true });
});

function driverWith(extra: Partial<DriverOptions> = {}, lines: string[] = []): CodexAppServerDriver {
  return createCodexDriver({ cwd: work, modelBaseUrl: mock.baseUrl, record: (l) => lines.push(l), ...extra });
}

/** Reads events until `until` matches (inclusive), or the stream ends. */
async function readUntil(
  iterator: AsyncIterator<RuntimeEvent>,
  events: RuntimeEvent[],
  until: (e: RuntimeEvent) => boolean,
): Promise<RuntimeEvent | undefined> {
  while (true) {
    const next = await iterator.next();
    if (next.done) return undefined;
    events.push(next.value);
    if (until(next.value)) return next.value;
  }
}

async function drain(iterator: AsyncIterator<RuntimeEvent>, events: RuntimeEvent[]): Promise<void> {
  await readUntil(iterator, events, () => false);
}

function expectCrashEnding(events: RuntimeEvent[]): void {
  const types = events.map((e) => e.type);
  expect(events.some((e) => e.type === "runtime.error" && e.payload.class === "transport_error")).toBe(true);
  expect(events.find((e) => e.type === "turn.completed")?.payload).toMatchObject({ state: "failed" });
  expect(events.at(-1)).toMatchObject({ type: "session.exited", payload: { exitKind: "error" } });
  expect(types.filter((t) => t === "session.exited")).toHaveLength(1);
  expect(verifyEvents(events)).toEqual([]);
}

describe("codex app-server driver (real codex, mock model)", () => {
  it("runs the shell scenario: approval accepted, command output, turn completed; replay matches", async () => {
    const lines: string[] = [];
    const driver = driverWith({ sessionId: "drv-shell" }, lines);
    await driver.start();
    const events = await driveTurns(driver, ["mock:shell run a command"]);
    await driver.stop();
    await drain(driver.events[Symbol.asyncIterator](), events);
    for (const event of events) RuntimeEventSchema.parse(event);
    expect(verifyEvents(events)).toEqual([]);
    const opened = events.find((e) => e.type === "request.opened");
    expect(opened?.payload.requestType).toBe("command_execution_approval");
    expect(events.find((e) => e.type === "request.resolved")).toMatchObject({
      requestId: opened?.requestId,
      payload: { decision: "accept" },
    });
    const command = events.find(
      (e) => e.type === "item.completed" && e.payload.itemType === "command_execution",
    );
    expect(JSON.stringify(command?.payload)).toContain("mock-shell-output");
    expect(events.find((e) => e.type === "turn.completed")?.payload).toMatchObject({ state: "completed" });
    expect(events.at(-1)).toMatchObject({ type: "session.exited", payload: { exitKind: "graceful" } });
    // The recorded transcript replays to the same events (the driver's own closing events aside).
    const replayed = replayCodexAppServer(`${lines.join("\n")}\n`, "drv-shell");
    expect(replayed).toEqual(events.slice(0, replayed.length));
  }, 30_000);

  it("ends everything when codex is killed mid-turn with an approval pending", async () => {
    const driver = driverWith();
    await driver.start();
    await driver.sendTurn({ text: "mock:shell run a command" });
    const events: RuntimeEvent[] = [];
    const iterator = driver.events[Symbol.asyncIterator]();
    const opened = await readUntil(iterator, events, (e) => e.type === "request.opened");
    expect(opened).toBeDefined();
    process.kill(driver.pid as number, "SIGKILL");
    await drain(iterator, events);
    expectCrashEnding(events);
    const resolved = events.find((e) => e.type === "request.resolved");
    expect(resolved).toMatchObject({ requestId: opened?.requestId, payload: { decision: "cancel" } });
    await expect(driver.respond(opened?.requestId as string, { decision: "accept" })).rejects.toThrow(
      UnknownRequestError,
    );
    await driver.stop();
  }, 30_000);

  it("treats garbage on stdout as a transport failure mid-turn", async () => {
    // A wrapper around the real binary that injects a non-JSON line right after turn/started.
    const wrapper = join(work, "garbage-wrapper.cjs");
    await writeFile(
      wrapper,
      `const { spawn } = require("node:child_process");
const child = spawn(process.execPath, [process.argv[2], "app-server"], { stdio: ["inherit", "pipe", "inherit"] });
let injected = false;
require("node:readline").createInterface({ input: child.stdout }).on("line", (line) => {
  process.stdout.write(line + "\\n");
  if (!injected && line.includes('"turn/started"')) { injected = true; process.stdout.write("this is not json\\n"); }
});
process.on("SIGTERM", () => child.kill("SIGTERM"));
child.on("exit", (code) => process.exit(code ?? 1));
`,
    );
    const lines: string[] = [];
    const driver = driverWith({ agentCommand: [process.execPath, wrapper, codexBinaryPath()] }, lines);
    await driver.start();
    const events: RuntimeEvent[] = [];
    await driver.sendTurn({ text: "mock:shell run a command" });
    await drain(driver.events[Symbol.asyncIterator](), events);
    expect(events.some((e) => e.type === "runtime.warning" && e.payload.message.includes("not JSON"))).toBe(
      true,
    );
    expectCrashEnding(events);
    expect(lines.some((l) => l.includes("this is not json"))).toBe(true);
    await driver.stop();
  }, 30_000);

  it("stop() with a pending approval cancels it and ends the turn", async () => {
    const driver = driverWith();
    await driver.start();
    await driver.sendTurn({ text: "mock:shell run a command" });
    const events: RuntimeEvent[] = [];
    const iterator = driver.events[Symbol.asyncIterator]();
    const opened = await readUntil(iterator, events, (e) => e.type === "request.opened");
    await driver.stop();
    await drain(iterator, events);
    expect(events.find((e) => e.type === "request.resolved")).toMatchObject({
      requestId: opened?.requestId,
      payload: { decision: "cancel" },
    });
    expect(events.find((e) => e.type === "turn.completed")?.payload.state).toBe("interrupted");
    expect(events.at(-1)).toMatchObject({ type: "session.exited", payload: { exitKind: "graceful" } });
    expect(verifyEvents(events)).toEqual([]);
    await expect(driver.respond(opened?.requestId as string, { decision: "accept" })).rejects.toThrow(
      UnknownRequestError,
    );
  }, 30_000);

  it("respond() to an unknown request id rejects", async () => {
    const driver = driverWith();
    await driver.start();
    await expect(driver.respond("req_nope", { decision: "accept" })).rejects.toThrow(UnknownRequestError);
    await driver.stop();
  }, 30_000);

  it("fails the handshake in time when the program never answers", async () => {
    const driver = driverWith({
      agentCommand: [process.execPath, "-e", "setInterval(() => {}, 1000)"],
      startTimeoutMs: 500,
    });
    const events: RuntimeEvent[] = [];
    await expect(driver.start()).rejects.toThrow(/timed out/);
    await drain(driver.events[Symbol.asyncIterator](), events);
    expect(events.at(-1)).toMatchObject({ type: "session.exited", payload: { exitKind: "error" } });
    await driver.stop();
  }, 10_000);

  it("resumes a thread in a new session, and a slow consumer loses nothing", async () => {
    const home = await mkdtemp(join(tmpdir(), "codex-home-"));
    const first = driverWith({ env: { CODEX_HOME: home } });
    await first.start();
    await driveTurns(first, ["mock:text first"]);
    const threadId = first.threadId;
    await first.stop();
    const second = driverWith({ env: { CODEX_HOME: home }, resume: threadId as string });
    await second.start();
    await second.sendTurn({ text: "mock:long a long answer" });
    const events: RuntimeEvent[] = [];
    const iterator = second.events[Symbol.asyncIterator]();
    // A slow host: the driver must pause codex's stdout (back-pressure) and still deliver every event.
    while (true) {
      const next = await iterator.next();
      if (next.done) break;
      events.push(next.value);
      if (events.length % 200 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      if (next.value.type === "turn.completed") break;
    }
    expect(events.find((e) => e.type === "session.started")?.payload).toMatchObject({
      resume: { method: "thread/resume", providerThreadId: threadId },
    });
    const deltas = events.filter(
      (e) => e.type === "content.delta" && e.payload.streamKind === "assistant_text",
    );
    expect(deltas.length).toBeGreaterThan(1000);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => (events[0]?.sequence ?? 1) + i));
    await second.stop();
    await rm(home, { recursive: true, force: true });
  }, 60_000);
});
