import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { type MockModelServer, startMockModel } from "../../../src/mock-model/index.js";
import { createCodexDriver } from "../../../src/providers/codex/driver.js";
import { verifyEvents } from "../../../src/verify/index.js";
import { driveTurns } from "./drive-turns.js";
import { replayCodexAppServer } from "./replay.js";

/**
 * Codex resuming a thread whose turn a crash cut short: `thread/resume` lists that turn (status "interrupted") and
 * the app-server then replays its token usage under its turn id. That turn is history, not live: it must not open
 * a canonical turn that nothing will ever end (the session would look `running` while idle).
 */

const FIXTURE = fileURLToPath(new URL("../../fixtures/codex/resume-after-crash.jsonl", import.meta.url));

interface Line {
  dir: string;
  msg: {
    id?: number;
    method?: string;
    params?: { turnId?: string };
    result?: { thread?: { turns?: unknown } };
  };
}

function resumeReplyTurnIds(transcript: string): string[] {
  const lines = transcript
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Line);
  const resumeId = lines.find((l) => l.dir === "out" && l.msg.method === "thread/resume")?.msg.id;
  const reply = lines.find((l) => l.dir === "in" && l.msg.id === resumeId && l.msg.method === undefined);
  const turns = reply?.msg.result?.thread?.turns;
  return Array.isArray(turns) ? turns.map((t) => (t as { id: string }).id) : [];
}

function expectOneLiveTurn(events: readonly RuntimeEvent[], historyTurnIds: readonly string[]): void {
  const started = events.filter((e) => e.type === "turn.started");
  expect(started).toHaveLength(1);
  expect(historyTurnIds).not.toContain(started[0]?.providerRefs?.providerTurnId);
  const ended = events.filter((e) => e.type === "turn.completed");
  expect(ended.map((e) => [e.turnId, e.payload.state])).toEqual([[started[0]?.turnId, "completed"]]);
  const states = events.filter((e) => e.type === "session.state.changed" && e.turnId !== undefined);
  expect(states.at(-1)?.payload).toMatchObject({ state: "ready" });
  // The replayed usage is still reported, at thread level, naming its native turn.
  const usage = events.find((e) => e.type === "thread.token-usage.updated");
  expect(usage?.turnId).toBeUndefined();
  expect(historyTurnIds).toContain(usage?.providerRefs?.providerTurnId);
  expect(verifyEvents(events)).toEqual([]);
}

describe("codex: a thread resumed after a crash cut its turn short", () => {
  // Recorded with the driver's `record` option from the real run below (codex 0.171.0, mock model): the first
  // app-server's group got SIGTERM while an approval was pending, as the guard does when the host is SIGKILLed.
  it("the recorded transcript: the cut turn stays history, the new turn starts and ends", () => {
    const transcript = readFileSync(FIXTURE, "utf8");
    const history = resumeReplyTurnIds(transcript);
    expect(history).toHaveLength(1);
    const usageLine = transcript.split("\n").find((l) => l.includes('"thread/tokenUsage/updated"'));
    expect(usageLine).toContain(history[0]);
    expectOneLiveTurn(replayCodexAppServer(transcript, "ses_resume_crash"), history);
  });

  // Hand-written: a turn the resume listed that really starts again is live (and its end is not lost).
  it("a listed turn that Codex starts again opens and ends normally", () => {
    const thread = "th-1";
    const lines = [
      { dir: "out", msg: { id: 1, method: "thread/resume", params: { threadId: thread } } },
      {
        dir: "in",
        msg: { id: 1, result: { thread: { id: thread, turns: [{ id: "t-old", status: "interrupted" }] } } },
      },
      { dir: "in", msg: { method: "turn/started", params: { threadId: thread, turn: { id: "t-old" } } } },
      {
        dir: "in",
        msg: {
          method: "turn/completed",
          params: { threadId: thread, turn: { id: "t-old", status: "completed" } },
        },
      },
    ];
    const events = replayCodexAppServer(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`, "ses_hand");
    expect(events.filter((e) => e.type === "turn.started")).toHaveLength(1);
    expect(events.find((e) => e.type === "turn.completed")?.payload).toMatchObject({ state: "completed" });
    expect(verifyEvents(events)).toEqual([]);
  });

  describe("real codex, mock model", () => {
    let mock: MockModelServer;
    let work: string;
    beforeAll(async () => {
      mock = await startMockModel();
      work = await mkdtemp(join(tmpdir(), "codex-resume-crash-"));
    });
    afterAll(async () => {
      await mock.close();
      await rm(work, { recursive: true, force: true });
    });

    it("after SIGTERM of the app-server's group mid-approval, the resumed session has one turn, ended", async () => {
      const home = join(work, "home");
      const options = { cwd: work, modelBaseUrl: mock.baseUrl, env: { CODEX_HOME: home } };
      const first = createCodexDriver(options);
      await first.start();
      await first.sendTurn({ text: "mock:shell run a command" });
      const firstEvents = first.events[Symbol.asyncIterator]();
      while (true) {
        const next = await firstEvents.next();
        if (next.done || next.value.type === "request.opened") break;
      }
      const threadId = first.threadId as string;
      process.kill(-(first.pid as number), "SIGTERM");
      while (!(await firstEvents.next()).done);
      await first.stop();

      const lines: string[] = [];
      const second = createCodexDriver({ ...options, resume: threadId, record: (l) => lines.push(l) });
      await second.start();
      const events = await driveTurns(second, ["mock:text after the crash"]);
      // Stopped and drained: a turn left open would be closed here as interrupted, and fail the check.
      await second.stop();
      const rest = second.events[Symbol.asyncIterator]();
      for (let next = await rest.next(); !next.done; next = await rest.next()) events.push(next.value);
      const history = resumeReplyTurnIds(`${lines.join("\n")}\n`);
      expect(history.length).toBeGreaterThan(0);
      expectOneLiveTurn(events, history);
    }, 60_000);
  });
});
