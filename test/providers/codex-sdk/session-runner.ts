import type { RuntimeDriver } from "../../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../../src/contracts/events.js";

/**
 * Reads a driver's events in the background and lets a caller wait for "the current turn has ended" — what the
 * recording script and the driver tests need. Not part of the driver itself.
 */
export class EventCollector {
  readonly events: RuntimeEvent[] = [];
  readonly done: Promise<void>;
  #wake: Array<() => void> = [];

  constructor(driver: RuntimeDriver) {
    this.done = (async () => {
      for await (const event of driver.events) {
        this.events.push(event);
        this.#notify();
      }
      this.#notify();
    })();
  }

  /** Resolves when an event after index `from` satisfies `test`, or the stream ends; rejects after `timeoutMs`. */
  async waitFor(
    test: (event: RuntimeEvent) => boolean,
    from = 0,
    timeoutMs = 60_000,
  ): Promise<RuntimeEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    let ended = false;
    void this.done.then(() => {
      ended = true;
    });
    for (;;) {
      const found = this.events.slice(from).find(test);
      if (found !== undefined) return found;
      if (ended) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("timed out waiting for an event");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.#wake.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the end of the turn begun after index `from` (turn.completed / turn.aborted / session.exited). */
  turnEnd(from: number, timeoutMs?: number): Promise<RuntimeEvent | undefined> {
    return this.waitFor(
      (event) =>
        event.type === "turn.completed" || event.type === "turn.aborted" || event.type === "session.exited",
      from,
      timeoutMs,
    );
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = [];
    for (const resolve of wake) resolve();
  }
}

/** Starts the driver, runs each prompt as one turn to its end, stops. Returns every event. */
export async function runTurns(
  driver: RuntimeDriver,
  prompts: readonly string[],
  timeoutMs = 60_000,
): Promise<RuntimeEvent[]> {
  const collector = new EventCollector(driver);
  try {
    await driver.start();
    for (const prompt of prompts) {
      const from = collector.events.length;
      await driver.sendTurn({ text: prompt });
      await collector.turnEnd(from, timeoutMs);
    }
  } finally {
    await driver.stop();
    await collector.done;
  }
  return collector.events;
}
