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

  async flush(): Promise<void> {
    if (this.#chunk.length === 0) return;
    const text = `${this.#chunk.join("\n")}\n`;
    this.#chunk = [];
    this.#size = 0;
    if (!this.out.write(text)) await new Promise<void>((resolve) => this.out.once("drain", resolve));
  }
}
