import { isScenarioName, SCENARIO_NAMES } from "./scenarios.js";
import { type MockModelOptions, startMockModel } from "./server.js";

export interface MockModelCommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface MockModelCommandControl {
  /** Stops the server like SIGINT does; for callers (and tests) that do not send process signals. */
  signal?: AbortSignal;
}

export const MOCK_MODEL_HELP = `Usage: provider-runtime mock-model [--port N] [--ttl SECONDS] [--scenario NAME] [--pace N]

Serves a scripted model on 127.0.0.1 (OpenAI Responses API and Anthropic Messages API, streaming)
until SIGINT or SIGTERM. Prints the base URL on stdout:
  Codex:       base_url = "<URL>/v1", wire_api = "responses"
  Claude Code: ANTHROPIC_BASE_URL=<URL>

A prompt containing mock:<scenario> picks the reply; without a marker it is "text".
Scenarios: ${SCENARIO_NAMES.join(", ")}

Options:
  --port N          port to listen on (default: a free port)
  --ttl SECONDS     stop by itself after this many seconds
  --scenario NAME   answer every request with this scenario
  --pace N          stream about N SSE events (deltas) per second, like a real model (benches)
  -h, --help        show this help
`;

type ParsedArgs = { help: true } | { help: false; options: MockModelOptions };

/** `argv` holds the arguments after `mock-model`. Resolves to the exit code. */
export async function runMockModelCommand(
  argv: readonly string[],
  io: MockModelCommandIo,
  control: MockModelCommandControl = {},
): Promise<number> {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    io.stderr.write(`mock-model: ${(error as Error).message}\n\n${MOCK_MODEL_HELP}`);
    return 2;
  }
  if (parsed.help) {
    io.stdout.write(MOCK_MODEL_HELP);
    return 0;
  }
  let server: Awaited<ReturnType<typeof startMockModel>>;
  try {
    server = await startMockModel(parsed.options);
  } catch (error) {
    io.stderr.write(`mock-model: cannot listen: ${(error as Error).message}\n`);
    return 1;
  }
  io.stdout.write(`${server.baseUrl}\n`);
  const stop = () => void server.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  control.signal?.addEventListener("abort", stop, { once: true });
  if (control.signal?.aborted) stop();
  await server.closed;
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  control.signal?.removeEventListener("abort", stop);
  return 0;
}

function parseArgs(argv: readonly string[]): ParsedArgs {
  const options: MockModelOptions = {};
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? "";
    if (arg === "-h" || arg === "--help") return { help: true };
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? splitOnce(arg) : [arg, undefined];
    const value = () => {
      const next = inline ?? argv[++index];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case "--port":
        options.port = integerIn(value(), 0, 65_535, "--port");
        break;
      case "--ttl":
        options.ttlMs = positiveSeconds(value()) * 1000;
        break;
      case "--pace":
        options.eventsPerSecond = integerIn(value(), 1, 1_000_000, "--pace");
        break;
      case "--scenario": {
        const name = value();
        if (!isScenarioName(name)) throw new Error(`unknown scenario "${name}"`);
        options.scenario = name;
        break;
      }
      default:
        throw new Error(`unexpected argument "${arg}"`);
    }
  }
  return { help: false, options };
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf("=");
  return [arg.slice(0, at), arg.slice(at + 1)];
}

function integerIn(text: string, min: number, max: number, flag: string): number {
  const number = Number(text);
  if (!/^\d+$/.test(text) || number < min || number > max)
    throw new Error(`${flag} must be an integer ${min}-${max}`);
  return number;
}

function positiveSeconds(text: string): number {
  const seconds = Number(text);
  if (text.trim() === "" || !Number.isFinite(seconds) || seconds <= 0)
    throw new Error("--ttl must be a positive number");
  return seconds;
}
