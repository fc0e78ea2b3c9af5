import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnknownRequestError } from "../../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import {
  type MockModelServer,
  type ScriptOverride,
  SHELL_COMMAND,
  startMockModel,
} from "../../../src/mock-model/index.js";
import { type CodexSdkDriverOptions, createCodexSdkDriver } from "../../../src/providers/codex-sdk/driver.js";
import { verifyEvents } from "../../../src/verify/index.js";
import { isAlive } from "../../support/process.js";
import { stateContradictions } from "./fixture-checks.js";
import { replayCodexSdkTranscript } from "./replay.js";
import { EventCollector, runTurns } from "./session-runner.js";

const work = mkdtempSync(join(tmpdir(), "codex-sdk-driver-test-"));
let mock: MockModelServer;
let slowMock: MockModelServer;

/** A command that outlives the test's patience, so the turn is surely in flight when we act on it. */
const slowCommand: ScriptOverride = (facts) =>
  facts.scenario === "shell" && facts.toolResults.length === 0 && facts.tools.has("exec_command")
    ? {
        kind: "stream",
        label: "shell",
        blocks: [{ type: "tool_call", name: "exec_command", input: { cmd: "sleep 2" } }],
      }
    : undefined;

beforeAll(async () => {
  mock = await startMockModel();
  slowMock = await startMockModel({ script: slowCommand });
});
afterAll(async () => {
  await mock.close();
  await slowMock.close();
  rmSync(work, { recursive: true, force: true });
});

function options(extra: Partial<CodexSdkDriverOptions> = {}): CodexSdkDriverOptions {
  return { cwd: mkdtempSync(join(work, "cwd-")), modelBaseUrl: mock.baseUrl, ...extra };
}

/** The codex binary the SDK bundles (what it runs when no override is given). */
function bundledCodex(): string | undefined {
  const triple = process.arch === "arm64" ? "aarch64-unknown-linux-musl" : "x86_64-unknown-linux-musl";
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const bin = join(
      dir,
      "node_modules/@openai/codex-sdk/node_modules/@openai/codex-linux-x64/vendor",
      triple,
      "bin/codex",
    );
    const armBin = bin.replace("codex-linux-x64", "codex-linux-arm64");
    if (existsSync(bin)) return bin;
    if (existsSync(armBin)) return armBin;
    if (dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
}

/** A wrapper around the real codex: writes its pid, optionally a garbage line, then becomes codex. */
function wrapper(name: string, before: string): { path: string; pidFile: string } {
  const real = bundledCodex() as string;
  const path = join(work, `${name}.sh`);
  const pidFile = join(work, `${name}.pid`);
  writeFileSync(path, `#!/bin/sh\necho $$ > '${pidFile}'\n${before}\nexec '${real}' "$@"\n`);
  chmodSync(path, 0o755);
  return { path, pidFile };
}

function expectClean(events: RuntimeEvent[]): void {
  for (const event of events) RuntimeEventSchema.parse(event);
  expect(verifyEvents(events)).toEqual([]);
  // Nothing the driver or the mapper emits contradicts the kit's ready/idle after a turn (e.g. a starting or
  // active when the next exec run begins).
  expect(stateContradictions(events)).toEqual([]);
  expect(events.at(-1)?.type).toBe("session.exited");
  const started = events.filter((e) => e.type === "turn.started").length;
  expect(events.filter((e) => e.type === "turn.completed").length).toBe(started);
}

describe("codex-sdk driver with the real codex exec", () => {
  it("mock:shell end to end: a completed command item with its output; the transcript replays to the same events", async () => {
    const lines: string[] = [];
    const driver = createCodexSdkDriver(
      options({ sessionId: "ses_shell_e2e", record: (line) => lines.push(line) }),
    );
    const events = await runTurns(driver, ["mock:shell run a command"]);
    expectClean(events);
    const command = events.find(
      (e) => e.type === "item.completed" && e.payload.itemType === "command_execution",
    );
    expect(command?.type === "item.completed" && command.payload.status).toBe("completed");
    const output = events
      .map((e) =>
        e.type === "content.delta" && e.payload.streamKind === "command_output" ? e.payload.delta : "",
      )
      .join("");
    expect(output).toContain("mock-shell-output");
    expect(JSON.stringify(command?.payload)).toMatch(/"aggregatedOutput":"mock-shell-output/);
    // exec reports no cwd or duration: details has the unwrapped command (the mock's, as the model wrote it;
    // the recorded fixture predates its `| tee`), its shell and the exit code only.
    expect(command?.type === "item.completed" && command.payload.details).toEqual({
      command: SHELL_COMMAND,
      shell: "/bin/bash -lc",
      exitCode: 0,
    });
    expect(command?.type === "item.completed" && command.payload.title).toBe(SHELL_COMMAND);
    const turn = events.find((e) => e.type === "turn.completed");
    expect(turn?.type === "turn.completed" && turn.payload.state).toBe("completed");
    const text = events
      .map((e) =>
        e.type === "content.delta" && e.payload.streamKind === "assistant_text" ? e.payload.delta : "",
      )
      .join("");
    expect(text).toContain("mock final answer: shell");
    // Live and replayed streams agree: the replay lacks only the driver's own ending, session `stopped` (the
    // state semantics put it before the exit) and session.exited.
    expect(
      events.slice(-2).map((e) => (e.type === "session.state.changed" ? e.payload.state : e.type)),
    ).toEqual(["stopped", "session.exited"]);
    const replayed = replayCodexSdkTranscript(`${lines.join("\n")}\n`, "ses_shell_e2e");
    expect(replayed).toEqual(events.slice(0, -2));
  });

  it("respond() rejects: exec opens no request", async () => {
    const driver = createCodexSdkDriver(options());
    await expect(driver.respond("req_nope", { decision: "accept" })).rejects.toBeInstanceOf(
      UnknownRequestError,
    );
    await driver.stop();
  });

  it("interrupt() ends the running turn as interrupted, and the next turn resumes the thread", async () => {
    const driver = createCodexSdkDriver(options({ modelBaseUrl: slowMock.baseUrl }));
    const collector = new EventCollector(driver);
    await driver.start();
    await driver.sendTurn({ text: "mock:shell run a slow command" });
    await collector.waitFor((e) => e.type === "item.started" && e.payload.itemType === "command_execution");
    await driver.interrupt();
    const first = await collector.turnEnd(0);
    expect(first?.type === "turn.completed" && first.payload.state).toBe("interrupted");
    const from = collector.events.length;
    await driver.sendTurn({ text: "mock:text after the interrupt" });
    const second = await collector.turnEnd(from);
    expect(second?.type === "turn.completed" && second.payload.state).toBe("completed");
    await driver.stop();
    await collector.done;
    expectClean(collector.events);
    expect(collector.events.filter((e) => e.type === "thread.started")).toHaveLength(1);
  });

  describe("faults", () => {
    it("finds the codex binary the SDK bundles (the wrappers below run it)", () => {
      expect(bundledCodex()).toBeDefined();
    });

    it("stop() mid-turn: the turn ends interrupted, the session exits, exec is gone", async () => {
      const { path, pidFile } = wrapper("stop", "");
      const driver = createCodexSdkDriver(options({ modelBaseUrl: slowMock.baseUrl, codexPath: path }));
      const collector = new EventCollector(driver);
      await driver.start();
      await driver.sendTurn({ text: "mock:shell run a slow command" });
      await collector.waitFor((e) => e.type === "item.started" && e.payload.itemType === "command_execution");
      const pid = Number(readFileSync(pidFile, "utf8"));
      await driver.stop();
      await collector.done;
      expectClean(collector.events);
      const turn = collector.events.find((e) => e.type === "turn.completed");
      expect(turn?.type === "turn.completed" && turn.payload.state).toBe("interrupted");
      expect(isAlive(pid)).toBe(false);
    });

    it("exec killed mid-turn: runtime.error, the open item and the turn fail, the session exits", async () => {
      const { path, pidFile } = wrapper("kill", "");
      const driver = createCodexSdkDriver(options({ modelBaseUrl: slowMock.baseUrl, codexPath: path }));
      const collector = new EventCollector(driver);
      await driver.start();
      await driver.sendTurn({ text: "mock:shell run a slow command" });
      await collector.waitFor((e) => e.type === "item.started" && e.payload.itemType === "command_execution");
      process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
      await collector.done;
      const events = collector.events;
      expectClean(events);
      expect(events.some((e) => e.type === "runtime.error" && e.payload.class === "transport_error")).toBe(
        true,
      );
      const command = events.find(
        (e) => e.type === "item.completed" && e.payload.itemType === "command_execution",
      );
      expect(command?.type === "item.completed" && command.payload.status).toBe("failed");
      const exited = events.at(-1);
      expect(exited?.type === "session.exited" && exited.payload.exitKind).toBe("error");
      await expect(driver.sendTurn({ text: "again" })).rejects.toThrow(/ended/);
      await driver.stop();
    });

    it("garbage on exec's stdout: a warning, a transport error, the session exits; nothing hangs", async () => {
      const { path } = wrapper("garbage", "echo 'this is not json'");
      const driver = createCodexSdkDriver(options({ codexPath: path }));
      const collector = new EventCollector(driver);
      await driver.start();
      await expect(driver.sendTurn({ text: "mock:text hello" })).rejects.toThrow();
      await collector.done;
      const events = collector.events;
      expectClean(events);
      expect(events.some((e) => e.type === "runtime.warning" && e.raw?.payload === "this is not json")).toBe(
        true,
      );
      expect(events.some((e) => e.type === "runtime.error")).toBe(true);
      await driver.stop();
    });
  });
});
