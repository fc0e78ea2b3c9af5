// Runs one driver of the installed package against its mock model and prints a summary as JSON.
// No top-level await: the same file is bundled by esbuild as CommonJS too.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acpAgentCommand, createDriver } from "provider-runtime/drivers";
import { startMockModel } from "provider-runtime/mock-model";
import { verifyEvents } from "provider-runtime/verify";

async function main(target) {
  const mock = await startMockModel();
  const cwd = await mkdtemp(join(tmpdir(), "consumer-run-"));
  try {
    let driver;
    if (target.startsWith("acp:")) {
      const launch = await acpAgentCommand(target.slice(4), { modelBaseUrl: mock.baseUrl });
      driver = await createDriver("acp", {
        cwd,
        modelBaseUrl: mock.baseUrl,
        agentCommand: launch.command,
        env: launch.env,
      });
    } else driver = await createDriver(target, { cwd, modelBaseUrl: mock.baseUrl });
    const events = [];
    try {
      await driver.start();
    } catch (error) {
      return { error: error.message, name: error.name };
    }
    await driver.sendTurn({ text: "mock:shell run a command" });
    for await (const event of driver.events) {
      events.push(event);
      if (event.type === "request.opened") await driver.respond(event.requestId, { decision: "accept" });
      if (event.type === "turn.completed") await driver.stop();
    }
    return { types: events.map((event) => event.type), violations: verifyEvents(events) };
  } finally {
    await mock.close();
    await rm(cwd, { recursive: true, force: true });
  }
}

main(process.argv[2] ?? "codex").then(
  (summary) => console.log(JSON.stringify(summary)),
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
