import { createReadStream } from "node:fs";
import { access, constants } from "node:fs/promises";
import { createInterface } from "node:readline";

export class UnreadableInputError extends Error {}

/** Lines of a file (or stdin for `-`/undefined), streamed: memory stays constant whatever the size. */
export async function* readLines(
  file: string | undefined,
  stdin: NodeJS.ReadableStream = process.stdin,
): AsyncGenerator<string> {
  let input: NodeJS.ReadableStream;
  if (file === undefined || file === "-") {
    input = stdin;
  } else {
    try {
      await access(file, constants.R_OK);
    } catch (error) {
      throw new UnreadableInputError(
        `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
    input = createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 });
  }
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) yield line;
}
