import { type ParseArgsConfig, parseArgs } from "node:util";
import { UsageError } from "./usage.js";

type Options = Record<string, { type: "string" | "boolean" }>;

export interface ParsedArgs<O extends Options> {
  values: { [K in keyof O]?: O[K]["type"] extends "boolean" ? boolean : string } & { help?: boolean };
  positionals: string[];
}

/** `parseArgs` with unknown flags reported as a usage error, and `--help` everywhere. */
export function parseCommandArgs<O extends Options>(argv: string[], options: O): ParsedArgs<O> {
  const config: ParseArgsConfig = {
    args: argv,
    options: { ...options, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: true,
  };
  try {
    return parseArgs(config) as unknown as ParsedArgs<O>;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function singleInput(positionals: string[]): string | undefined {
  if (positionals.length > 1)
    throw new UsageError(`expected at most one input file, got ${positionals.length}`);
  return positionals[0];
}
