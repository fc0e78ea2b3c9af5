import { createReadStream } from "node:fs";
import { access, constants } from "node:fs/promises";

export class UnreadableInputError extends Error {}

/** Line breaks as `readline` (crlfDelay: Infinity) knows them: `\r\n`, `\n`, or a lone `\r`. */
const LINE_BREAK = /\r\n|\n|\r/;

/**
 * Lines of a file (or stdin for `-`/undefined), streamed: memory stays constant whatever the size. The stream is
 * read one 64 KiB chunk at a time and only pulled when the consumer asks for more lines, so no more than a chunk
 * of lines is ever waiting (readline queues every line of a chunk as events and reads ahead regardless).
 */
export async function* readLines(
  file: string | undefined,
  stdin: NodeJS.ReadableStream = process.stdin,
): AsyncGenerator<string> {
  let input: NodeJS.ReadableStream;
  if (file === undefined || file === "-") {
    input = stdin;
    input.setEncoding("utf8");
  } else {
    try {
      await access(file, constants.R_OK);
    } catch (error) {
      throw new UnreadableInputError(
        `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
    input = createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 16 });
  }
  let rest = "";
  for await (const chunk of input as AsyncIterable<string | Buffer>) {
    const text = rest + (typeof chunk === "string" ? chunk : chunk.toString("utf8"));
    // A trailing `\r` may be the first half of a `\r\n` split across chunks: it waits for the next chunk.
    const held = text.endsWith("\r") ? 1 : 0;
    const region = held === 1 ? text.slice(0, -1) : text;
    const end = Math.max(region.lastIndexOf("\n"), region.lastIndexOf("\r"));
    if (end < 0) {
      rest = text;
      continue;
    }
    rest = text.slice(end + 1);
    const lines = region.slice(0, end + 1).split(LINE_BREAK);
    lines.pop(); // the empty string after the last break
    for (const line of lines) yield line;
  }
  if (rest.endsWith("\r")) rest = rest.slice(0, -1);
  if (rest.length > 0) yield rest;
}
