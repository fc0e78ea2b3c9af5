import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { type RuntimeDriver, UnknownRequestError } from "../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { EventChannel } from "../../src/drivers/event-channel.js";
import { type MockModelOptions, type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import { verifyEvents } from "../../src/verify/index.js";

/** What the fault proxy does to the real program's stdout (see fault-proxy.cjs). */
export type FaultMode = "pass" | "exit" | "garbage" | "partial" | "close-stdout" | "mute" | "hang";

export interface Fault {
  mode: FaultMode;
  /** The stdout line (a substring of it) after which the fault fires. */
  after?: string;
}

export const PROXY = join(dirname(fileURLToPath(import.meta.url)), "fault-proxy.cjs");
const TEST_TIMEOUT_MS = 30_000;

/** Driver options a fault sets, only those set: a target spreads them into its driver's options as they are. */
export interface DriverLimits {
  startTimeoutMs?: number;
  highWaterMark?: number;
}

export interface MakeOptions {
  cwd: string;
  modelBaseUrl: string;
  fault: Fault;
  limits: DriverLimits;
}

/** What the host sees when a line that is not a protocol message reaches the driver. */
export type BadLineOutcome =
  /** A `runtime.warning`, then the session fails as a transport error (a JSON-RPC peer cannot trust the pipe). */
  | "crash"
  /** A `runtime.warning`, and the session goes on. */
  | "warn-and-continue"
  /** The SDK between us and the program drops the line before the driver sees it: no event, the session goes on. */
  | "dropped-by-sdk";

export interface DriverTarget {
  name: string;
  /** How the mock model plays this program (e.g. codex-acp's shell call asking to leave its sandbox). */
  mock?: MockModelOptions;
  make(options: MakeOptions): Promise<RuntimeDriver>;
  /** A stdout line of the program that means "a turn is under way". */
  midTurnLine: string;
  /** Whether the program asks for approvals (codex exec has no approval channel). */
  approvals: boolean;
  garbage: BadLineOutcome;
  partialLine: BadLineOutcome;
  /** Where start-up is bounded: `start()` (a handshake) or `sendTurn()` (codex exec starts per turn). */
  handshakeIn: "start" | "sendTurn";
  /** How "never answers" is injected (default `mute`: the program runs, its stdout is swallowed). */
  silentMode?: FaultMode;
  /** The high-water mark for the slow-consumer test (default 16). */
  highWaterMark?: number;
  /** Extra words for a test title, naming a limitation of the program or its SDK. */
  limitations?: Partial<Record<"garbage" | "partialLine" | "closeStdout" | "slowConsumer", string>>;
}

/** Writes an executable that runs the fault proxy around `real` (for SDKs that take one executable path). */
export async function proxyScript(dir: string, name: string, fault: Fault, real: string): Promise<string> {
  const path = join(dir, `${name}.sh`);
  const config = JSON.stringify(fault).replaceAll("'", "'\\''");
  await writeFile(path, `#!/bin/sh\nexec '${process.execPath}' '${PROXY}' '${config}' '${real}' "$@"\n`);
  await chmod(path, 0o755);
  return path;
}

/** The argv that runs `command` behind the fault proxy. */
export function proxyCommand(fault: Fault, command: readonly string[]): string[] {
  return [process.execPath, PROXY, JSON.stringify(fault), ...command];
}

/** Reads a driver's stream in the background. */
export class Reader {
  readonly events: RuntimeEvent[] = [];
  readonly done: Promise<void>;
  #waiters: Array<() => void> = [];

  constructor(driver: RuntimeDriver, onEvent?: (event: RuntimeEvent) => Promise<void> | void) {
    this.done = (async () => {
      for await (const event of driver.events) {
        this.events.push(event);
        this.#wake();
        await onEvent?.(event);
      }
      this.#wake();
    })();
  }

  /** The first event matching `test` (waits for it), or undefined if the stream ends first. */
  async waitFor(test: (event: RuntimeEvent) => boolean): Promise<RuntimeEvent | undefined> {
    let ended = false;
    void this.done.then(() => {
      ended = true;
    });
    for (;;) {
      const found = this.events.find(test);
      if (found !== undefined || ended) return found;
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

/** The stream's end state every fault must reach: nothing open, `session.exited` last, a valid stream. */
export function expectTerminal(events: RuntimeEvent[]): void {
  expect(verifyEvents(events)).toEqual([]);
  expect(events.at(-1)?.type).toBe("session.exited");
  expect(events.filter((e) => e.type === "session.exited")).toHaveLength(1);
  const count = (type: string) => events.filter((e) => e.type === type).length;
  expect(count("turn.completed") + count("turn.aborted")).toBe(count("turn.started"));
  expect(count("request.resolved")).toBe(count("request.opened"));
}

export function expectCrash(events: RuntimeEvent[]): void {
  expectTerminal(events);
  expect(events.some((e) => e.type === "runtime.error")).toBe(true);
  expect(events.at(-1)?.payload).toMatchObject({ exitKind: "error" });
  for (const turn of events.filter((e) => e.type === "turn.completed"))
    expect(turn.payload.state).not.toBe("completed");
}

/** Settles `promise`, failing (not hanging) after `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: still pending after ${ms} ms (a hang)`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const outcomeTitle: Record<BadLineOutcome, string> = {
  crash: "a warning, then a transport failure",
  "warn-and-continue": "a warning, and the session goes on",
  "dropped-by-sdk": "no warning, the session goes on",
};

/**
 * The seven faults of the conformance issue against one driver, each with the real program behind a proxy that
 * injects the fault. Every test ends with terminal events, no hang and no unhandled rejection.
 */
export function describeFaults(target: DriverTarget): void {
  describe(`${target.name}: driver faults (the real program behind a fault proxy, mock model)`, () => {
    let mock: MockModelServer;
    let work: string;
    /** This file's TMPDIR while it runs: the drivers' own temp dirs land here, and must be gone after `stop`. */
    let driversTmp: string;
    const outerTmpdir = process.env.TMPDIR;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    const drivers: RuntimeDriver[] = [];

    beforeAll(async () => {
      mock = await startMockModel(target.mock);
      work = await mkdtemp(join(tmpdir(), `faults-${target.name.replace(/\W+/g, "-")}-`));
      driversTmp = join(work, "tmp");
      await mkdir(driversTmp);
      process.env.TMPDIR = driversTmp;
      process.on("unhandledRejection", onUnhandled);
    });
    afterEach(async () => {
      // A test that failed half-way must not leave its agent running.
      await Promise.all(
        drivers.splice(0).map((d) => within(d.stop(), 10_000, "stop").catch(() => undefined)),
      );
      expect(unhandled, "unhandled rejections").toEqual([]);
      expect(await readdir(driversTmp), "the drivers' temp dirs once stop() resolved").toEqual([]);
    });
    afterAll(async () => {
      if (outerTmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = outerTmpdir;
      process.off("unhandledRejection", onUnhandled);
      await mock?.close();
      if (work !== undefined) await rm(work, { recursive: true, force: true });
    });

    async function driverWith(fault: Fault, limits: DriverLimits = {}): Promise<RuntimeDriver> {
      const cwd = await mkdtemp(join(work, "cwd-"));
      const driver = await target.make({ cwd, modelBaseUrl: mock.baseUrl, fault, limits });
      drivers.push(driver);
      return driver;
    }

    /** Starts, sends one turn, and reads the stream to its end (the fault must end it, or `stop` after the turn). */
    async function runOneTurn(driver: RuntimeDriver, prompt: string): Promise<RuntimeEvent[]> {
      const reader = new Reader(driver, (event) => {
        if (event.type === "turn.completed" || event.type === "turn.aborted") void driver.stop();
      });
      await driver.start();
      await driver.sendTurn({ text: prompt }).catch(() => undefined);
      await within(reader.done, 20_000, "the event stream");
      await within(driver.stop(), 10_000, "stop()");
      return reader.events;
    }

    function expectBadLine(events: RuntimeEvent[], outcome: BadLineOutcome): void {
      const warned = events.some((e) => e.type === "runtime.warning");
      if (outcome === "crash") {
        expect(warned).toBe(true);
        expectCrash(events);
        return;
      }
      expectTerminal(events);
      expect(warned).toBe(outcome === "warn-and-continue");
      expect(events.find((e) => e.type === "turn.completed")?.payload).toMatchObject({ state: "completed" });
    }

    it(
      "1. the program exits mid-turn: runtime.error, the turn fails, session.exited (error)",
      async () => {
        const driver = await driverWith({ mode: "exit", after: target.midTurnLine });
        const events = await runOneTurn(driver, "mock:long a long answer");
        expectCrash(events);
        expect(events.filter((e) => e.type === "turn.completed").map((e) => e.payload.state)).toEqual([
          "failed",
        ]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      `2a. garbage on stdout mid-turn: ${outcomeTitle[target.garbage]}${suffix(target.limitations?.garbage)}`,
      async () => {
        const driver = await driverWith({ mode: "garbage", after: target.midTurnLine });
        expectBadLine(await runOneTurn(driver, "mock:text hello"), target.garbage);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      `2b. a line cut mid-JSON: ${outcomeTitle[target.partialLine]}${suffix(target.limitations?.partialLine)}`,
      async () => {
        const driver = await driverWith({ mode: "partial", after: target.midTurnLine });
        expectBadLine(await runOneTurn(driver, "mock:text hello"), target.partialLine);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      `3. stdout closed while the program runs: the session fails instead of hanging${suffix(target.limitations?.closeStdout)}`,
      async () => {
        const driver = await driverWith({ mode: "close-stdout", after: target.midTurnLine });
        expectCrash(await runOneTurn(driver, "mock:long a long answer"));
      },
      TEST_TIMEOUT_MS,
    );

    it(
      `4. the program never answers: ${target.handshakeIn}() fails within startTimeoutMs, session.exited (error)`,
      async () => {
        const driver = await driverWith({ mode: target.silentMode ?? "mute" }, { startTimeoutMs: 1_500 });
        const reader = new Reader(driver);
        const began = Date.now();
        if (target.handshakeIn === "start") {
          await expect(within(driver.start(), 10_000, "start()")).rejects.toThrow();
        } else {
          await driver.start();
          await expect(
            within(driver.sendTurn({ text: "mock:text hi" }), 10_000, "sendTurn()"),
          ).rejects.toThrow(/within 1500 ms/);
        }
        expect(Date.now() - began).toBeLessThan(8_000);
        await within(reader.done, 10_000, "the event stream");
        await within(driver.stop(), 10_000, "stop()");
        expectCrash(reader.events);
      },
      TEST_TIMEOUT_MS,
    );

    if (target.approvals) {
      it(
        "5. stop() with a request pending: resolved as cancel, the turn ends, session.exited (graceful)",
        async () => {
          const driver = await driverWith({ mode: "pass" });
          const reader = new Reader(driver);
          await driver.start();
          await driver.sendTurn({ text: "mock:shell run a command" });
          const opened = await within(
            reader.waitFor((e) => e.type === "request.opened"),
            20_000,
            "request.opened",
          );
          expect(opened?.type).toBe("request.opened");
          await within(driver.stop(), 10_000, "stop()");
          await within(reader.done, 10_000, "the event stream");
          const events = reader.events;
          expectTerminal(events);
          expect(events.find((e) => e.type === "request.resolved")).toMatchObject({
            requestId: opened?.requestId,
            payload: { decision: "cancel" },
          });
          expect(events.at(-1)?.payload).toMatchObject({ exitKind: "graceful" });
          await expect(
            driver.respond(opened?.requestId ?? "", { decision: "accept" }),
          ).rejects.toBeInstanceOf(UnknownRequestError);
        },
        TEST_TIMEOUT_MS,
      );
    } else {
      it(
        "5. NO APPROVAL CHANNEL (exec opens no request): stop() mid-turn ends the turn interrupted, session.exited",
        async () => {
          const driver = await driverWith({ mode: "pass" });
          const reader = new Reader(driver);
          await driver.start();
          await driver.sendTurn({ text: "mock:long a long answer" });
          await driver.stop();
          await within(reader.done, 10_000, "the event stream");
          const events = reader.events;
          expectTerminal(events);
          expect(events.some((e) => e.type === "request.opened" || e.type === "user-input.requested")).toBe(
            false,
          );
          expect(events.filter((e) => e.type === "turn.completed").map((e) => e.payload.state)).toEqual([
            "interrupted",
          ]);
          expect(events.at(-1)?.payload).toMatchObject({ exitKind: "graceful" });
        },
        TEST_TIMEOUT_MS,
      );
    }

    it(
      "6. respond() to an unknown and to an already-resolved request rejects with UnknownRequestError",
      async () => {
        const driver = await driverWith({ mode: "pass" });
        let again: Promise<unknown> | undefined;
        const reader = new Reader(driver, async (event) => {
          if (event.type === "request.opened" && event.requestId !== undefined) {
            await driver.respond(event.requestId, { decision: "decline" });
            again = driver.respond(event.requestId, { decision: "accept" }).then(
              () => "answered twice",
              (error: unknown) => error,
            );
          }
          if (event.type === "turn.completed") void driver.stop();
        });
        await driver.start();
        await expect(driver.respond("req_nope", { decision: "accept" })).rejects.toBeInstanceOf(
          UnknownRequestError,
        );
        await driver.sendTurn({ text: "mock:shell run a command" });
        await within(reader.done, 20_000, "the event stream");
        const events = reader.events;
        expectTerminal(events);
        if (target.approvals) {
          expect(await again).toBeInstanceOf(UnknownRequestError);
          expect(events.filter((e) => e.type === "request.resolved").map((e) => e.payload)).toMatchObject([
            { decision: "decline" },
          ]);
        } else {
          expect(again).toBeUndefined();
          expect(events.some((e) => e.type === "request.opened")).toBe(false);
        }
        // After the session: still a clear rejection, never a crash.
        await expect(driver.respond("req_nope", { decision: "accept" })).rejects.toBeInstanceOf(
          UnknownRequestError,
        );
      },
      TEST_TIMEOUT_MS,
    );

    it(
      `7. a slow consumer: the driver stops reading at the high-water mark; nothing lost${suffix(target.limitations?.slowConsumer)}`,
      async () => {
        const highWaterMark = target.highWaterMark ?? 16;
        // a driver that leaves a listener behind at each pause makes Node warn past ten of them
        const warnings: string[] = [];
        const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
        process.on("warning", onWarning);
        onTestFinished(() => {
          process.off("warning", onWarning);
        });
        const driver = await driverWith({ mode: "pass" }, { highWaterMark });
        const channel = driver.events;
        expect(channel).toBeInstanceOf(EventChannel);
        const buffered = () => (channel as EventChannel).buffered;
        await driver.start();
        await driver.sendTurn({ text: "mock:long a long answer" });
        let maxBuffered = 0;
        // The host does not read at all for a while: the buffer must stay near the mark.
        for (let i = 0; i < 20; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          maxBuffered = Math.max(maxBuffered, buffered());
        }
        const events: RuntimeEvent[] = [];
        const read = (async () => {
          for await (const event of driver.events) {
            maxBuffered = Math.max(maxBuffered, buffered());
            events.push(event);
            if (events.length % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
            if (event.type === "turn.completed") void driver.stop();
          }
        })();
        await within(read, 25_000, "the slow read");
        expectTerminal(events);
        expect(maxBuffered).toBeGreaterThanOrEqual(Math.min(highWaterMark, 8));
        expect(maxBuffered).toBeLessThanOrEqual(highWaterMark + 24);
        expect(events.find((e) => e.type === "turn.completed")?.payload).toMatchObject({
          state: "completed",
        });
        const sequences = events.map((e) => e.sequence);
        expect(sequences).toEqual(sequences.map((_, i) => i + 1));
        const text = events
          .map((e) =>
            e.type === "content.delta" && e.payload.streamKind === "assistant_text" ? e.payload.delta : "",
          )
          .join("");
        expect(text).toContain("word2999");
        expect(warnings).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "8. a host that reads nothing until its calls return: start() and sendTurn() are answered at a high-water mark of 1",
      async () => {
        const driver = await driverWith({ mode: "pass" }, { highWaterMark: 1 });
        await within(driver.start(), 15_000, "start() while the host reads nothing");
        await within(
          driver.sendTurn({ text: "mock:text first" }),
          15_000,
          "sendTurn() while the host reads nothing",
        );
        const events: RuntimeEvent[] = [];
        const iterator = driver.events[Symbol.asyncIterator]();
        const readTurn = async () => {
          while (true) {
            const next = await iterator.next();
            if (next.done) return;
            events.push(next.value);
            if (next.value.type === "turn.completed" || next.value.type === "turn.aborted") return;
          }
        };
        await within(readTurn(), 20_000, "the first turn");
        // the first turn's last events may still be arriving: the host again reads nothing while it asks
        await within(driver.sendTurn({ text: "mock:text second" }), 15_000, "a second sendTurn()");
        await within(readTurn(), 20_000, "the second turn");
        void driver.stop();
        while (true) {
          const next = await iterator.next();
          if (next.done) break;
          events.push(next.value);
        }
        expectTerminal(events);
        expect(events.filter((e) => e.type === "turn.completed")).toHaveLength(2);
        expect(verifyEvents(events)).toEqual([]);
      },
      TEST_TIMEOUT_MS * 2,
    );

    it(
      "9. stop() twice at once: the second resolves only once the driver's own temp dir is gone",
      async () => {
        const driver = await driverWith({ mode: "pass" });
        const reader = new Reader(driver);
        await within(driver.start(), 15_000, "start()");
        expect((await readdir(driversTmp)).length, "the driver's own dir, made at start").toBeGreaterThan(0);
        const first = driver.stop();
        await within(driver.stop(), 10_000, "the second stop()");
        expect(await readdir(driversTmp)).toEqual([]);
        await within(first, 10_000, "the first stop()");
        await within(reader.done, 10_000, "the event stream");
        expectTerminal(reader.events);
      },
      TEST_TIMEOUT_MS,
    );
  });
}

function suffix(limitation: string | undefined): string {
  return limitation === undefined ? "" : ` — LIMITATION: ${limitation}`;
}
