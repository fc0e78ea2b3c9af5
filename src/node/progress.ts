/** A one-line progress report on a terminal for long runs (a months-long history import), at most once a second. */
export class ProgressLine {
  #calls = 0;
  #last = Date.now();

  constructor(
    readonly out: NodeJS.WritableStream,
    readonly enabled: boolean,
    readonly checkEvery = 4_096,
  ) {}

  tick(describe: () => string): void {
    if (!this.enabled || ++this.#calls % this.checkEvery !== 0) return;
    const now = Date.now();
    if (now - this.#last < 1_000) return;
    this.#last = now;
    this.out.write(`\r${describe()}`);
  }

  /** The final count, on its own line. */
  done(describe: () => string): void {
    if (this.enabled) this.out.write(`\r${describe()}\n`);
  }
}
