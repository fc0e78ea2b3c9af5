/** A line longer than the splitter's maximum: not kept, only its beginning and its length. */
export interface OverlongLine {
  kind: "too-long";
  /** The line's first HEAD_BYTES bytes, decoded (a character cut at the end is dropped). */
  head: string;
  /** The line's length in bytes, without its line break. */
  bytes: number;
}

/** How much of an overlong line is kept. */
export const HEAD_BYTES = 4096;

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits a byte stream into UTF-8 lines on `\r\n`, `\n` or a lone `\r` (as `readline` with crlfDelay: Infinity),
 * in time linear in the input: each byte is scanned once, a line split across chunks is kept as the chunks' slices
 * and joined once, and a line past `maxLineBytes` is dropped as it arrives (only its head and its length stay),
 * reading resuming after its line break. Lines are decoded whole, so a character split across chunks is intact.
 */
export class LineSplitter {
  /** The slices of the line being read, when it spans chunks. */
  #pieces: Buffer[] = [];
  #pendingBytes = 0;
  /** While an overlong line is being skipped: the slices of its first HEAD_BYTES bytes; undefined otherwise. */
  #head: Buffer[] | undefined;
  #headBytes = 0;
  #skippedBytes = 0;
  /** The previous chunk ended in `\r`: a `\n` opening the next one belongs to that break. */
  #afterCr = false;

  constructor(readonly maxLineBytes = Number.POSITIVE_INFINITY) {}

  /** Appends to `out` the lines that `chunk` completes. */
  push(chunk: Buffer, out: (string | OverlongLine)[]): void {
    if (chunk.length === 0) return;
    let start = 0;
    if (this.#afterCr) {
      this.#afterCr = false;
      if (chunk[0] === LF) start = 1;
    }
    // The next `\n` and `\r` at or after `start`; -1 once there is none left in this chunk (never searched again).
    let lf = chunk.indexOf(LF, start);
    let cr = chunk.indexOf(CR, start);
    while (lf >= 0 || cr >= 0) {
      const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      this.#take(chunk, start, end);
      out.push(this.#finishLine(chunk, start, end));
      if (end === cr && end + 1 === chunk.length) {
        this.#afterCr = true;
        start = end + 1;
      } else start = end === cr && chunk[end + 1] === LF ? end + 2 : end + 1;
      if (lf >= 0 && lf < start) lf = chunk.indexOf(LF, start);
      if (cr >= 0 && cr < start) cr = chunk.indexOf(CR, start);
    }
    if (start < chunk.length) {
      this.#take(chunk, start, chunk.length);
      this.#keep(chunk, start, chunk.length);
    }
  }

  /** Appends the last line, when the input does not end in a line break. */
  end(out: (string | OverlongLine)[]): void {
    if (this.#head !== undefined || this.#pendingBytes > 0) out.push(this.#finishLine(undefined, 0, 0));
    this.#afterCr = false;
  }

  /** Counts `chunk[start, end)` into the current line; starts skipping it when it grows past the maximum. */
  #take(chunk: Buffer, start: number, end: number): void {
    if (this.#head !== undefined) {
      this.#skippedBytes += end - start;
      this.#addToHead(chunk, start, end);
      return;
    }
    const total = this.#pendingBytes + (end - start);
    if (total <= this.maxLineBytes) return;
    this.#head = [];
    this.#headBytes = 0;
    for (const piece of this.#pieces) this.#addToHead(piece, 0, piece.length);
    this.#addToHead(chunk, start, end);
    this.#skippedBytes = total;
    this.#pieces = [];
    this.#pendingBytes = 0;
  }

  #addToHead(chunk: Buffer, start: number, end: number): void {
    const room = HEAD_BYTES - this.#headBytes;
    if (room <= 0 || this.#head === undefined) return;
    const piece = chunk.subarray(start, Math.min(end, start + room));
    this.#head.push(piece);
    this.#headBytes += piece.length;
  }

  /** Keeps the tail of a chunk as the start of a line that the next chunks go on with. */
  #keep(chunk: Buffer, start: number, end: number): void {
    if (this.#head !== undefined) return;
    this.#pieces.push(chunk.subarray(start, end));
    this.#pendingBytes += end - start;
  }

  /** The line that ends at `chunk[end]` (or at the end of input when `chunk` is undefined). */
  #finishLine(chunk: Buffer | undefined, start: number, end: number): string | OverlongLine {
    if (this.#head !== undefined) {
      const line: OverlongLine = { kind: "too-long", head: headText(this.#head), bytes: this.#skippedBytes };
      this.#head = undefined;
      this.#headBytes = 0;
      this.#skippedBytes = 0;
      return line;
    }
    if (this.#pieces.length === 0) return chunk === undefined ? "" : chunk.toString("utf8", start, end);
    if (chunk !== undefined && end > start) this.#pieces.push(chunk.subarray(start, end));
    const text = Buffer.concat(this.#pieces).toString("utf8");
    this.#pieces = [];
    this.#pendingBytes = 0;
    return text;
  }
}

/** The head's text; a character cut at HEAD_BYTES decodes as U+FFFD and is left out. */
function headText(pieces: readonly Buffer[]): string {
  const bytes = Buffer.concat(pieces);
  const text = bytes.toString("utf8");
  return bytes.length === HEAD_BYTES && text.endsWith("\uFFFD") ? text.slice(0, -1) : text;
}
