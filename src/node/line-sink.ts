/** Batches output lines and respects back-pressure, so a huge `normalize` never buffers without limit. */
export class LineSink {
  #chunk: string[] = [];
  #size = 0;

  constructor(
    readonly out: NodeJS.WritableStream,
    readonly batchBytes = 1 << 16,
  ) {}

  async write(line: string): Promise<void> {
    this.#chunk.push(line);
    this.#size += line.length + 1;
    if (this.#size >= this.batchBytes) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.#chunk.length === 0) return;
    const text = `${this.#chunk.join("\n")}\n`;
    this.#chunk = [];
    this.#size = 0;
    if (!this.out.write(text)) await new Promise<void>((resolve) => this.out.once("drain", resolve));
  }
}
