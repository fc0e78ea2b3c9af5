/**
 * A host process for the kill test: starts a driver against the given mock, sends a turn that stays in flight (an
 * approval left pending, or codex exec's long command), then prints `READY <json>` with every process below it,
 * and waits to be killed. Run with `node --import tsx host.ts TARGET BASE_URL CWD`.
 */
import { descendants } from "./procs.js";
import { makeDriver, type Target } from "./targets.js";

const [target, modelBaseUrl, cwd] = process.argv.slice(2) as [Target, string, string];
const driver = await makeDriver(target, { cwd, modelBaseUrl });
await driver.start();
let reported = false;
const report = () => {
  if (reported) return;
  reported = true;
  // A moment for the command (codex exec) to start below the agent.
  setTimeout(() => process.stdout.write(`READY ${JSON.stringify(descendants(process.pid))}\n`), 500);
};
void (async () => {
  for await (const event of driver.events) {
    if (event.type === "request.opened") report();
    if (event.type === "item.started" && event.payload.itemType === "command_execution") report();
    if (event.type === "session.exited") process.stdout.write(`EXITED ${JSON.stringify(event.payload)}\n`);
  }
})();
await driver.sendTurn({ text: "mock:shell run a command" });
setInterval(() => undefined, 1_000);
