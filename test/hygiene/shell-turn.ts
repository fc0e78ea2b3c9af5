// TEST TOOL: one `mock:shell` turn through a real driver, for the hygiene tests that watch the agent's
// processes while it runs.

import type { RuntimeDriver } from "../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";

export interface ShellTurnHooks {
  /** Every 100 ms from the start to the stop. */
  poll(): void;
  /** Once the driver has started (the agent is up). */
  started?(): void;
  /** At the approval request (before it is accepted) and at the turn's end: the agent at rest. */
  atRest(moment: "request" | "turn-end"): void;
}

/**
 * Starts `driver`, runs one `mock:shell` turn with its approval accepted, stops the driver at the turn's end (and
 * again, in any case, before returning: `stop` settles once the driver's own dirs are gone). The stream's events.
 */
export async function runShellTurn(driver: RuntimeDriver, hooks: ShellTurnHooks): Promise<RuntimeEvent[]> {
  const poller = setInterval(() => hooks.poll(), 100);
  const events: RuntimeEvent[] = [];
  try {
    await driver.start();
    hooks.started?.();
    const done = (async () => {
      for await (const event of driver.events) {
        events.push(event);
        if (event.type === "request.opened" && event.requestId !== undefined) {
          hooks.atRest("request");
          await driver.respond(event.requestId, { decision: "accept" });
        }
        if (event.type === "turn.completed") {
          hooks.atRest("turn-end");
          await driver.stop();
        }
      }
    })();
    await driver.sendTurn({ text: "mock:shell run a command" });
    await done;
  } finally {
    clearInterval(poller);
    await driver.stop();
  }
  return events;
}
