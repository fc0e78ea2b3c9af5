/** A mistake in how the command was called: exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Whether stdout is a terminal (colour, prompts). */
  isTTY: boolean;
  /** Whether stderr is a terminal (progress lines). */
  stderrIsTTY?: boolean;
  /** Whether stdin is a terminal (prompts: `--approve ask`, `chat`). */
  stdinIsTTY?: boolean;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export const MAIN_HELP = `provider-runtime — one canonical event stream for Codex, Claude and ACP agents

Usage: provider-runtime <command> [options]

Commands:
  normalize --from SOURCE [--session-id ID] [--validate] [FILE|-]
                         native transcript → canonical events (JSONL)
  verify [FILE|-]        check a canonical stream (exit 1 with one violation per line)
  project [FILE|-]       canonical stream → thread view (JSON)
  view [--html] [FILE|-] canonical stream → readable timeline (--html: one self-contained page)
  run --provider P [--mock] [--approve ask|accept|decline] [--json] [--record FILE] PROMPT...
                         one turn of a live session with a real agent program
  chat --provider P [--mock] [--approve ask|accept|decline]
                         an interactive multi-turn session on a terminal
  serve [--host H] [--port N] [--data DIR] [--token T] [--root DIR] [--mock] [--cors ORIGIN]
                         the session server: agents over HTTP + Server-Sent Events
  import [--data DIR] [--from claude-code|codex-rollout] [PATH...]
                         local agent history (Claude Code, Codex rollouts) into the store, incrementally
  coverage [--json]      each native kind of the pinned versions and what it maps to
  schema                 the canonical JSON Schema
  mock-model [--port N]  the scripted model server

Run 'provider-runtime <command> --help' for a command's options.
`;
