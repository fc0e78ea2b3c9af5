import { createReadStream } from "node:fs";
import { access, constants } from "node:fs/promises";
import { LineSplitter, type OverlongLine } from "./line-splitter.js";

export { HEAD_BYTES, type OverlongLine } from "./line-splitter.js";

export class UnreadableInputError extends Error {}

/** The longest line `normalize` reads by default (`--max-line-bytes`): 64 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface ReadLineOptions {
  /** A longer line is not kept: it comes as an OverlongLine and reading resumes after its line break. */
  maxLineBytes?: number;
}

/**
 * Lines of a file (or stdin for `-`/undefined), streamed: memory stays constant whatever the size, but for the
 * line at hand (at most `maxLineBytes`). The stream is read one 64 KiB chunk at a time and only pulled when the
 * consumer asks for more lines, so no more than a chunk of lines is ever waiting (readline queues every line of a
 * chunk as events and reads ahead regardless). Line breaks: `\r\n`, `\n`, or a lone `\r`.
 */
export async function* readLineRecords(
  file: string | undefined,
  stdin: NodeJS.ReadableStream = process.stdin,
  options: ReadLineOptions = {},
): AsyncGenerator<string | OverlongLine> {
  for await (const batch of lineBatches(file, stdin, options.maxLineBytes)) yield* batch;
}

/** readLineRecords without a maximum: every line whole. */
export async function* readLines(
  file: string | undefined,
  stdin: NodeJS.ReadableStream = process.stdin,
): AsyncGenerator<string> {
  // without a maximum the splitter gives only strings
  for await (const batch of lineBatches(file, stdin, undefined)) yield* batch as string[];
}

/** The lines each chunk completes, a chunk at a time (one generator step per chunk, not per line). */
async function* lineBatches(
  file: string | undefined,
  stdin: NodeJS.ReadableStream,
  maxLineBytes: number | undefined,
): AsyncGenerator<(string | OverlongLine)[]> {
  const input = await openInput(file, stdin);
  const splitter = new LineSplitter(maxLineBytes);
  for await (const chunk of input as AsyncIterable<string | Buffer>) {
    const lines: (string | OverlongLine)[] = [];
    splitter.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk, lines);
    if (lines.length > 0) yield lines;
  }
  const last: (string | OverlongLine)[] = [];
  splitter.end(last);
  if (last.length > 0) yield last;
}

async function openInput(
  file: string | undefined,
  stdin: NodeJS.ReadableStream,
): Promise<NodeJS.ReadableStream> {
  if (file === undefined || file === "-") return stdin;
  try {
    await access(file, constants.R_OK);
  } catch (error) {
    throw new UnreadableInputError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  return createReadStream(file, { highWaterMark: 1 << 16 });
}
