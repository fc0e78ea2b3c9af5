import { appendFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  DriverOptions,
  RequestResponse,
  RuntimeDriver,
  SessionSettings,
  TurnAttachment,
} from "../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { projectEvents } from "../../src/projection/reducer.js";
import type { ThreadView } from "../../src/projection/thread-view.js";
import { answerUserInput } from "../cli/commands/run-answers.js";

export interface ScenarioRun {
  events: RuntimeEvent[];
  view: ThreadView;
  cwd: string;
  /** Errors the driver API itself raised (start, sendTurn, respond). */
  apiErrors: string[];
  /** What `whileRunning` threw (an UnsupportedError where the provider cannot), if it threw. */
  whileRunningError?: unknown;
  /** What `configure` threw (an UnsupportedError where the provider cannot change the setting), if it threw. */
  configureError?: unknown;
  /** The driver's capabilities after start. */
  capabilities?: RuntimeDriver["capabilities"];
}

export interface ScenarioScript {
  prompts: string[];
  /** Interrupt the first turn once it has streamed some assistant text. */
  interruptAfterFirstDelta?: boolean;
  decision?: RequestResponse["decision"];
  /** Options the driver is created with beyond cwd and model (e.g. MCP servers). */
  driverOptions?: Partial<DriverOptions>;
  /** Settings applied after start, before the prompt at `configureBefore` (`configure`). */
  configure?: SessionSettings;
  /** The index of the prompt `configure` runs before (default 0: before the first). */
  configureBefore?: number;
  /** Attachments sent with the first prompt. */
  attachments?: TurnAttachment[];
  /**
   * Called once while the first turn runs: at its first request (which is answered only after it), its first
   * command, or else its first assistant delta. What it throws is kept in `whileRunningError`.
   */
  whileRunning?: (driver: RuntimeDriver, cwd: string) => Promise<void>;
  /** How many turns to wait for after the prompts (default one per prompt): turns `whileRunning` queued. */
  extraTurns?: number;
}

const TURN_END = new Set(["turn.completed", "turn.aborted", "session.exited"]);

/** The scenarios' cwds: the checks read files in them after the run, so they stay until `removeScenarioDirs`. */
const scenarioDirs = new Set<string>();

/** Removes every cwd `runScenario` made so far; its users call it in their afterAll. */
export async function removeScenarioDirs(): Promise<void> {
  const dirs = [...scenarioDirs];
  scenarioDirs.clear();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}

/**
 * Runs a driver through prompts like a host would: reads every event, answers every request (questions with
 * each question's first option), waits for each turn's end, then stops. Bounded by `timeoutMs`. With
 * PROVIDER_RUNTIME_DRIFT_REPORT set (`npm run drift`), the run's events are appended to that file.
 */
export async function runScenario(
  create: (options: DriverOptions) => RuntimeDriver | Promise<RuntimeDriver>,
  modelBaseUrl: string,
  script: ScenarioScript,
  timeoutMs = 90_000,
): Promise<ScenarioRun> {
  const cwd = await mkdtemp(join(tmpdir(), "pr-conformance-"));
  scenarioDirs.add(cwd);
  const driver = await create({ cwd, modelBaseUrl, ...script.driverOptions });
  const events: RuntimeEvent[] = [];
  const apiErrors: string[] = [];
  const questions = new Map<string, unknown>();
  let wake: (() => void) | undefined;
  let interrupted = false;
  let whileRunningError: unknown;
  let configureError: unknown;
  let held: Promise<void> | undefined;
  const holdOnce = () => {
    if (held !== undefined || script.whileRunning === undefined) return held ?? Promise.resolve();
    held = script.whileRunning(driver, cwd).catch((error: unknown) => {
      whileRunningError = error;
    });
    return held;
  };
  const reading = (async () => {
    for await (const event of driver.events) {
      events.push(event);
      if (event.type === "user-input.requested" && event.requestId)
        questions.set(event.requestId, event.payload.questions);
      if (event.type === "request.opened" && event.requestId) {
        const requestId = event.requestId;
        const hold = holdOnce();
        void hold.then(() =>
          setImmediate(() => {
            const answers = questions.has(requestId) ? answerUserInput(questions.get(requestId)) : undefined;
            const response: RequestResponse = {
              decision: script.decision ?? "accept",
              ...(answers ? { answers } : {}),
            };
            driver
              .respond(requestId, response)
              .catch((error: unknown) => apiErrors.push(`respond: ${String(error)}`));
          }),
        );
      }
      if (event.type === "content.delta" && event.payload.streamKind === "assistant_text") void holdOnce();
      if (event.type === "item.started" && event.payload.itemType === "command_execution") void holdOnce();
      if (script.interruptAfterFirstDelta && !interrupted && event.type === "content.delta") {
        interrupted = true;
        driver.interrupt().catch((error: unknown) => apiErrors.push(`interrupt: ${String(error)}`));
      }
      wake?.();
    }
    wake?.();
  })();
  const deadline = Date.now() + timeoutMs;
  const waitForTurnEnd = async (from: number) => {
    while (!events.slice(from).some((e) => TURN_END.has(e.type))) {
      if (Date.now() > deadline) throw new Error(`scenario timed out after ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 200);
      });
    }
  };
  try {
    await driver.start();
    for (const [index, prompt] of script.prompts.entries()) {
      if (script.configure !== undefined && index === (script.configureBefore ?? 0))
        await driver.configure(script.configure).catch((error: unknown) => {
          configureError = error;
        });
      const from = events.length;
      const attachments = index === 0 ? script.attachments : undefined;
      await driver.sendTurn({ text: prompt, ...(attachments === undefined ? {} : { attachments }) });
      await waitForTurnEnd(from);
    }
    for (let extra = 0; extra < (script.extraTurns ?? 0); extra++) {
      await held;
      const ends = () =>
        events.filter((e) => e.type === "turn.completed" || e.type === "turn.aborted").length;
      const want = script.prompts.length + extra + 1;
      while (ends() < want && !events.some((e) => e.type === "session.exited")) {
        if (Date.now() > deadline) throw new Error(`scenario timed out after ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 200);
        });
      }
    }
  } catch (error) {
    apiErrors.push(String(error));
  } finally {
    await driver.stop().catch((error: unknown) => apiErrors.push(`stop: ${String(error)}`));
    await reading;
  }
  if (process.env.PROVIDER_RUNTIME_DRIFT_REPORT !== undefined) {
    appendFileSync(
      process.env.PROVIDER_RUNTIME_DRIFT_REPORT,
      `${events.map((event) => JSON.stringify({ type: event.type, payload: event.payload, raw: event.raw })).join("\n")}\n`,
    );
  }
  return {
    events,
    view: projectEvents(events),
    cwd,
    apiErrors,
    capabilities: driver.capabilities,
    ...(whileRunningError === undefined ? {} : { whileRunningError }),
    ...(configureError === undefined ? {} : { configureError }),
  };
}

export const assistantDeltas = (events: readonly RuntimeEvent[]) =>
  events
    .filter((e) => e.type === "content.delta" && e.payload.streamKind === "assistant_text")
    .map((e) => (e.type === "content.delta" ? e.payload.delta : ""))
    .join("");
