import type { RequestResponse, RuntimeDriver } from "../../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../../src/contracts/events.js";

/** How a scripted host answers a request: by its `request.opened` event. */
export type AutoAnswer = (opened: Extract<RuntimeEvent, { type: "request.opened" }>) => RequestResponse;

export const acceptAll: AutoAnswer = () => ({ decision: "accept" });

/**
 * Runs prompts one after another on a started driver, answering every request with `answer`, and collects the
 * events until each turn completes. Used by the fixture recorder and the driver tests.
 */
export async function driveTurns(
  driver: RuntimeDriver,
  prompts: readonly string[],
  answer: AutoAnswer = acceptAll,
  events: RuntimeEvent[] = [],
): Promise<RuntimeEvent[]> {
  const iterator = driver.events[Symbol.asyncIterator]();
  for (const prompt of prompts) {
    await driver.sendTurn({ text: prompt });
    // Until no turn is open: a mapper that took a subagent's turn for one of the session's must not cut the
    // recording short at the child's end.
    const open = new Set<string>();
    while (true) {
      const next = await iterator.next();
      if (next.done) return events;
      const event = next.value;
      events.push(event);
      if (event.type === "request.opened" && event.requestId !== undefined)
        await driver.respond(event.requestId, answer(event));
      if (event.type === "turn.started") open.add(event.turnId);
      if (event.type === "turn.completed" || event.type === "turn.aborted") {
        open.delete(event.turnId);
        if (open.size === 0) break;
      }
    }
  }
  return events;
}
