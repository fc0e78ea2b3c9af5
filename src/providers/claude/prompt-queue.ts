/**
 * The streaming-input prompt of `query()`: an async iterable the driver pushes user messages into, one per
 * turn, for as long as the session lives. `end()` finishes the iteration (Claude Code then exits).
 */
export class PromptQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #ended = false;
  #waiter: (() => void) | undefined;

  get ended(): boolean {
    return this.#ended;
  }

  push(item: T): void {
    if (this.#ended) throw new Error("the prompt stream has ended");
    this.#items.push(item);
    this.#wake();
  }

  end(): void {
    this.#ended = true;
    this.#wake();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    while (true) {
      const next = this.#items.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => {
        this.#waiter = resolve;
      });
    }
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }
}
