/** Batches output lines and respects back-pressure, so a huge `normalize` never buffers without limit. */
export class LineSink {
  #chunk: string[] = [];
  #size = 0;

  constructor(
    readonly out: NodeJS.WritableStream,
    readonly batchBytes = 1 << 16,
  ) {}

  /** Queues lines; returns a promise only when a batch went out and the stream asked to wait (await it). */
  writeLines(lines: readonly string[]): Promise<void> | undefined {
    for (const line of lines) {
      this.#chunk.push(line);
      this.#size += line.length + 1;
    }
    return this.#size >= this.batchBytes ? this.flush() : undefined;
  }

  async write(line: string): Promise<void> {
    await this.writeLines([line]);
  }

  /**
   * Writes the queued lines in pieces of about `batchBytes` (a line that reaches it ends its piece), waiting for the
   * stream between pieces: huge lines (events that carry a line of hundreds of MB as raw) are never joined.
   */
  async flush(): Promise<void> {
    const lines = this.#chunk;
    if (lines.length === 0) return;
    this.#chunk = [];
    this.#size = 0;
    let start = 0;
    let size = 0;
    for (let index = 0; index < lines.length; index++) {
      size += (lines[index] as string).length + 1;
      if (size < this.batchBytes && index < lines.length - 1) continue;
      const text = `${lines.slice(start, index + 1).join("\n")}\n`;
      start = index + 1;
      size = 0;
      if (!this.out.write(text)) await new Promise<void>((resolve) => this.out.once("drain", resolve));
    }
  }
}
