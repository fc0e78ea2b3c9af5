import { DRIVER_PROVIDERS } from "../../drivers/index.js";
import { escapeControls } from "../../view/terminal-text.js";
import { parseCommandArgs } from "../args.js";
import { planSession, SESSION_FLAGS, SESSION_HELP } from "../session/agent-session.js";
import { LiveSession } from "../session/live-session.js";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "../usage.js";

const HELP = `Usage: provider-runtime run --provider ${DRIVER_PROVIDERS.join("|")} [options] PROMPT...

Runs one turn of a live session with the real agent program and prints its canonical events.
${SESSION_HELP}  --timeout SECONDS      give up after this long (default 300)

Requests are answered one at a time. SIGINT/SIGTERM stop the session (pending requests cancelled,
session.exited written) and exit 130/143.
`;

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...SESSION_FLAGS, timeout: { type: "string" } });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const plan = planSession(values, io, "run");
  const prompt = positionals.join(" ").trim();
  if (prompt.length === 0) throw new UsageError("run needs a PROMPT");
  const timeoutSeconds = values.timeout === undefined ? 300 : Number(values.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UsageError("--timeout must be a positive number");

  return LiveSession.with({ plan, io, json: values.json === true, readStdin: false }, (live) =>
    driveOneTurn(live, prompt, io, timeoutSeconds * 1000),
  );
}

/** One turn: exit 0 when it completed, 1 when it failed, the agent broke, or no end came in time. */
async function driveOneTurn(
  live: LiveSession,
  prompt: string,
  io: CliIo,
  timeoutMs: number,
): Promise<number> {
  const { driver } = live;
  let turnState: string | undefined;
  let failed = false;
  live.onEvent((event) => {
    if (event.type === "turn.completed" && turnState === undefined) {
      turnState = event.payload.state;
      void driver.stop();
    }
    if (event.type === "runtime.error" && event.payload.class === "transport_error") failed = true;
  });
  const timer = setTimeout(() => {
    io.stderr.write(`provider-runtime: no end of turn after ${timeoutMs / 1000}s; stopping\n`);
    failed = true;
    void driver.stop();
  }, timeoutMs);
  try {
    await driver.start();
    await driver.sendTurn({ text: prompt });
    await live.ended;
  } catch (error) {
    if (live.stopSignal === undefined)
      io.stderr.write(
        `provider-runtime: ${escapeControls(error instanceof Error ? error.message : String(error))}\n`,
      );
    await driver.stop().catch(() => undefined);
    failed = true;
  } finally {
    clearTimeout(timer);
  }
  return !failed && turnState === "completed" ? EXIT_OK : EXIT_FAILURE;
}
