import { createWriteStream } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import type { RuntimeEvent } from "../../contracts/events.js";
import { createDriver, DRIVER_PROVIDERS, isDriverProvider } from "../../drivers/index.js";
import type { DriverOptions, RequestResponse, RuntimeDriver } from "../../drivers/types.js";
import { TimelineRenderer } from "../../view/timeline.js";
import { parseCommandArgs } from "../args.js";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "../usage.js";
import { resolveAcpAgent } from "./acp-agent.js";
import { answerUserInput } from "./run-answers.js";

const HELP = `Usage: provider-runtime run --provider ${DRIVER_PROVIDERS.join("|")} [options] PROMPT...

Runs one turn of a live session with the real agent program and prints its canonical events.
  --mock                 start the built-in mock model server (offline); the prompt's mock:<scenario> picks the script
  --agent CMD            the ACP agent: a command line, or claude-agent-acp | codex-acp (--provider acp)
  --cwd DIR              the agent's working directory (default: a fresh temp dir with --mock, else the current dir)
  --model NAME           the model to ask for
  --approve MODE         ask (default on a terminal) | accept | decline (default off a terminal)
  --record FILE          write the native transcript (JSONL) to FILE
  --json                 canonical events as JSONL instead of the timeline
  --timeout SECONDS      give up after this long (default 300)
`;

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    provider: { type: "string" },
    mock: { type: "boolean" },
    agent: { type: "string" },
    cwd: { type: "string" },
    model: { type: "string" },
    approve: { type: "string" },
    record: { type: "string" },
    json: { type: "boolean" },
    timeout: { type: "string" },
    "session-id": { type: "string" },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const provider = values.provider;
  if (provider === undefined || !isDriverProvider(provider)) {
    throw new UsageError(`run needs --provider ${DRIVER_PROVIDERS.join("|")}`);
  }
  const approve = values.approve ?? (io.isTTY ? "ask" : "decline");
  if (approve !== "ask" && approve !== "accept" && approve !== "decline") {
    throw new UsageError(`--approve must be ask, accept or decline, not "${approve}"`);
  }
  if (provider === "acp" && values.agent === undefined)
    throw new UsageError("--provider acp needs --agent CMD");
  const prompt = positionals.join(" ").trim();
  if (prompt.length === 0) throw new UsageError("run needs a PROMPT");
  const timeoutSeconds = values.timeout === undefined ? 300 : Number(values.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UsageError("--timeout must be a positive number");

  const mock = values.mock ? await startMock() : undefined;
  const recordStream = values.record === undefined ? undefined : createWriteStream(values.record);
  try {
    const cwd = values.cwd
      ? resolve(values.cwd)
      : mock
        ? await mkdtemp(join(tmpdir(), "provider-runtime-run-"))
        : process.cwd();
    const options: DriverOptions = { cwd };
    if (mock) options.modelBaseUrl = mock.baseUrl;
    if (values.model !== undefined) options.model = values.model;
    if (values["session-id"] !== undefined) options.sessionId = values["session-id"];
    if (values.agent !== undefined) {
      const launch = await resolveAcpAgent(values.agent, mock?.baseUrl);
      if (launch.warning !== undefined) io.stderr.write(`provider-runtime: ${launch.warning}\n`);
      options.agentCommand = launch.command;
      options.env = launch.env;
    }
    if (recordStream) options.record = (line) => recordStream.write(`${line}\n`);
    const driver = await createDriver(provider, options);
    return await driveOneTurn(driver, prompt, {
      approve,
      json: values.json === true,
      io,
      timeoutMs: timeoutSeconds * 1000,
    });
  } finally {
    recordStream?.end();
    await mock?.close();
  }
}

interface TurnRunOptions {
  approve: "ask" | "accept" | "decline";
  json: boolean;
  io: CliIo;
  timeoutMs: number;
}

async function driveOneTurn(driver: RuntimeDriver, prompt: string, options: TurnRunOptions): Promise<number> {
  const { io } = options;
  const renderer = new TimelineRenderer({ color: io.isTTY && !process.env.NO_COLOR });
  const print = (event: RuntimeEvent) => {
    if (options.json) io.stdout.write(`${JSON.stringify(event)}\n`);
    else for (const line of renderer.render(event)) io.stdout.write(`${line}\n`);
  };
  const questionsByRequest = new Map<string, unknown>();
  let turnState: string | undefined;
  let failed = false;
  const timer = setTimeout(() => {
    io.stderr.write(`provider-runtime: no end of turn after ${options.timeoutMs / 1000}s; stopping\n`);
    failed = true;
    void driver.stop();
  }, options.timeoutMs);
  try {
    const consume = (async () => {
      for await (const event of driver.events) {
        print(event);
        if (event.type === "user-input.requested" && event.requestId !== undefined) {
          questionsByRequest.set(event.requestId, event.payload.questions);
        }
        if (event.type === "request.opened" && event.requestId !== undefined) {
          const requestId = event.requestId;
          void decide(event, questionsByRequest, options).then((response) =>
            driver.respond(requestId, response).catch((error: unknown) => {
              io.stderr.write(`provider-runtime: could not answer ${requestId}: ${String(error)}\n`);
            }),
          );
        }
        if (event.type === "turn.completed" && turnState === undefined) {
          turnState = event.payload.state;
          void driver.stop();
        }
        if (event.type === "runtime.error" && event.payload.class === "transport_error") failed = true;
      }
    })();
    await driver.start();
    await driver.sendTurn({ text: prompt });
    await consume;
  } catch (error) {
    io.stderr.write(`provider-runtime: ${error instanceof Error ? error.message : String(error)}\n`);
    await driver.stop().catch(() => undefined);
    failed = true;
  } finally {
    clearTimeout(timer);
  }
  for (const line of renderer.flush()) if (!options.json) io.stdout.write(`${line}\n`);
  return !failed && turnState === "completed" ? EXIT_OK : EXIT_FAILURE;
}

/** Answers one request by the --approve policy; questions are answered with each question's first option. */
async function decide(
  event: Extract<RuntimeEvent, { type: "request.opened" }>,
  questionsByRequest: ReadonlyMap<string, unknown>,
  options: TurnRunOptions,
): Promise<RequestResponse> {
  // The user-input.requested of the same native request is queued right behind request.opened.
  await new Promise((resolve) => setImmediate(resolve));
  const questions = event.requestId === undefined ? undefined : questionsByRequest.get(event.requestId);
  if (options.approve === "ask" && questions === undefined) return askOnTerminal(event, options.io);
  const decision = options.approve === "decline" ? "decline" : "accept";
  const answers = questions === undefined ? undefined : answerUserInput(questions);
  return answers === undefined ? { decision } : { decision, answers };
}

async function askOnTerminal(
  event: Extract<RuntimeEvent, { type: "request.opened" }>,
  io: CliIo,
): Promise<RequestResponse> {
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const what = [event.payload.requestType, event.payload.detail].filter(Boolean).join(": ");
    const answer = (await rl.question(`approve ${what}? [y]es / [a]lways / [n]o / [c]ancel: `))
      .trim()
      .toLowerCase();
    if (answer.startsWith("a")) return { decision: "acceptForSession" };
    if (answer.startsWith("y")) return { decision: "accept" };
    if (answer.startsWith("c")) return { decision: "cancel" };
    return { decision: "decline" };
  } finally {
    rl.close();
  }
}

async function startMock(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const { startMockModel } = await import("../../mock-model/index.js");
  const server = await startMockModel();
  return { baseUrl: server.baseUrl, close: async () => server.close() };
}
