/**
 * A first-in first-out queue that lets go of what it hands out: a taken slot is cleared at once. An array read
 * by an index and compacted only now and then keeps up to a thousand taken items alive per queue, which the
 * garbage collector then copies and promotes as if they were in use (a session server's driver queues held
 * ~600 delivered events per session that way).
 */
export class Fifo<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** The oldest item, left in the queue. */
  peek(): T | undefined {
    return this.#items[this.#head];
  }

  /** Takes the oldest item; undefined when empty. */
  shift(): T | undefined {
    if (this.#head === this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined;
    if (this.#head === this.#items.length) {
      this.#items.length = 0;
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      // the cleared prefix costs a slot each; dropped once it is half the array (amortized linear)
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Up to `count` of the oldest items, oldest first, left in the queue. */
  peekMany(count: number): T[] {
    return this.#items.slice(this.#head, this.#head + count) as T[];
  }
}
