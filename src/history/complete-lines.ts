import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { LineSplitter, type OverlongLine } from "../node/line-splitter.js";

const LF = 0x0a;
const BLOCK = 1 << 16;

/**
 * The length of the part of a file that ends in a line break (0 when there is none): what `import` reads. A last
 * line without its break is still being written; it is read on a later run, once complete. Found by reading
 * backwards from `size` a block at a time, so a file costs one block unless its last line is long.
 */
export async function completeLength(path: string, size: number): Promise<number> {
  const handle = await open(path, "r");
  try {
    const block = Buffer.alloc(Math.min(BLOCK, Math.max(size, 1)));
    for (let end = size; end > 0; ) {
      const start = Math.max(0, end - block.length);
      const { bytesRead } = await handle.read(block, 0, end - start, start);
      const at = block.subarray(0, bytesRead).lastIndexOf(LF);
      if (at >= 0) return start + at + 1;
      end = start;
    }
    return 0;
  } finally {
    await handle.close();
  }
}

/** The lines a chunk of the file completed, and the chunk's size (for progress). */
export interface LineChunk {
  lines: (string | OverlongLine)[];
  bytes: number;
}

/** The lines of the file's first `length` bytes (which end in a line break), a chunk's worth at a time. */
export async function* completeLines(
  path: string,
  length: number,
  maxLineBytes: number,
): AsyncGenerator<LineChunk> {
  if (length === 0) return;
  const splitter = new LineSplitter(maxLineBytes);
  for await (const chunk of createReadStream(path, { start: 0, end: length - 1, highWaterMark: BLOCK })) {
    const lines: (string | OverlongLine)[] = [];
    splitter.push(chunk as Buffer, lines);
    yield { lines, bytes: (chunk as Buffer).length };
  }
  const last: (string | OverlongLine)[] = [];
  splitter.end(last); // nothing: the part read ends in a line break
  if (last.length > 0) yield { lines: last, bytes: 0 };
}
