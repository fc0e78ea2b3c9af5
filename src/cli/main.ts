import { UnreadableInputError } from "../node/line-source.js";
import { endQuietlyOnClosedPipe, PIPE_COMMANDS } from "./closed-pipe.js";
import { chatCommand } from "./commands/chat.js";
import { coverageCommand } from "./commands/coverage.js";
import { importCommand } from "./commands/import.js";
import { normalizeCommand } from "./commands/normalize.js";
import { projectCommand } from "./commands/project.js";
import { runCommand } from "./commands/run.js";
import { schemaCommand } from "./commands/schema.js";
import { verifyCommand } from "./commands/verify.js";
import { viewCommand } from "./commands/view.js";
import { type CliIo, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, MAIN_HELP, UsageError } from "./usage.js";

type Command = (argv: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  normalize: normalizeCommand,
  verify: verifyCommand,
  project: projectCommand,
  view: viewCommand,
  run: runCommand,
  chat: chatCommand,
  coverage: coverageCommand,
  schema: schemaCommand,
  serve: async (argv, io) => (await import("./commands/serve.js")).serveCommand(argv, io),
  import: importCommand,
  "mock-model": async (argv, io) => (await import("../mock-model/cli.js")).runMockModelCommand(argv, io),
};

export function processIo(): CliIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    isTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stdinIsTTY: process.stdin.isTTY === true,
  };
}

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(MAIN_HELP);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.stderr.write(`provider-runtime: unknown command "${name}"\n\n${MAIN_HELP}`);
    return EXIT_USAGE;
  }
  try {
    return await command(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`provider-runtime ${name}: ${error.message}\n(see provider-runtime ${name} --help)\n`);
      return EXIT_USAGE;
    }
    if (error instanceof UnreadableInputError) {
      io.stderr.write(`provider-runtime ${name}: ${error.message}\n`);
      return EXIT_FAILURE;
    }
    throw error;
  }
}

/** Runs the CLI as this process: its exit code, and a one-line message on stderr for an unexpected error. */
export function runAsProcess(argv: string[] = process.argv.slice(2)): void {
  if (PIPE_COMMANDS.has(argv[0] ?? "")) endQuietlyOnClosedPipe(process.stdout);
  main(argv).then(
    (code) => {
      process.exitCode = code;
      // Ended by a signal: the session is stopped; a handle that lingers (a stuck pipe) must not keep us here.
      if (code > 128) setTimeout(() => process.exit(code), 2_000).unref();
    },
    (error: unknown) => {
      process.stderr.write(`provider-runtime: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
