import { mkdir, mkdtemp, readdir, readFile, readlink, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ApprovalDecision } from "../../../src/contracts/enums.js";
import type { RuntimeEvent, RuntimeEventOf } from "../../../src/contracts/events.js";
import { mockOptionsForAgent } from "../../../src/mock-model/agent-scripts.js";
import { SCENARIO_PROMPTS } from "../../../src/mock-model/scenario-prompts.js";
import { startMockModel } from "../../../src/mock-model/server.js";
import { acpAgentCommand } from "../../../src/providers/acp/agent-commands.js";
import { createAcpDriver } from "../../../src/providers/acp/driver.js";
import { verifyEvents } from "../../../src/verify/index.js";

/**
 * The real claude-agent-acp against the mock model: the model writes a file (Claude Code's `Write`), and the host
 * refuses it — by declining its permission request, or by stopping the session while the request waits — or the
 * agent dies (SIGKILL) while the request waits, so the driver closes the item itself.
 */
async function refusedWrite(refusal: ApprovalDecision | "stop" | "agent-killed"): Promise<RuntimeEvent[]> {
  const mock = await startMockModel(mockOptionsForAgent("claude-agent-acp"));
  const workDir = await mkdtemp(join(tmpdir(), "acp-refused-write-"));
  const events: RuntimeEvent[] = [];
  try {
    const launch = await acpAgentCommand("claude-agent-acp", {
      modelBaseUrl: mock.baseUrl,
      stateDir: join(workDir, "state"),
    });
    const cwd = join(workDir, "project");
    await mkdir(cwd, { recursive: true });
    const driver = createAcpDriver({
      cwd,
      sessionId: `refused-write-${refusal}`,
      agentCommand: launch.command,
      env: launch.env,
    });
    await driver.start();
    const timer = setTimeout(() => void driver.stop(), 120_000);
    await driver.sendTurn({ text: SCENARIO_PROMPTS.edit });
    for await (const event of driver.events) {
      events.push(event);
      if (event.type === "request.opened" && event.requestId !== undefined) {
        if (refusal === "stop") void driver.stop();
        else if (refusal === "agent-killed") await killAgentIn(cwd);
        else await driver.respond(event.requestId, { decision: refusal });
      }
      if (event.type === "turn.completed") void driver.stop();
    }
    clearTimeout(timer);
    return events;
  } finally {
    await mock.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

/** SIGKILLs the claude-agent-acp process this test started: the one running in its own temp `cwd`. */
async function killAgentIn(cwd: string): Promise<void> {
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const where = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
    if (where !== cwd) continue;
    const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (command.includes("claude-agent-acp")) process.kill(Number(pid), "SIGKILL");
  }
}

function fileChanges(events: RuntimeEvent[]): RuntimeEventOf<"item.completed">[] {
  return events.filter(
    (e): e is RuntimeEventOf<"item.completed"> =>
      e.type === "item.completed" && e.payload.itemType === "file_change",
  );
}

/** The details the file change's last item.started/updated gave. */
function lastKnownDetails(events: RuntimeEvent[], itemId: string | undefined): unknown {
  let details: unknown;
  for (const e of events)
    if ((e.type === "item.started" || e.type === "item.updated") && e.itemId === itemId && e.payload.details)
      details = e.payload.details;
  return details;
}

describe("claude-agent-acp: a Write the host refuses", () => {
  for (const refusal of ["decline", "cancel", "stop", "agent-killed"] as const) {
    it(`${refusal}: the file change completes not completed, carrying its last known details`, async () => {
      const events = await refusedWrite(refusal);
      expect(verifyEvents(events)).toEqual([]);
      const changes = fileChanges(events);
      expect(changes).toHaveLength(1);
      const change = changes[0];
      expect(change?.payload.status).not.toBe("completed");
      const known = lastKnownDetails(events, change?.itemId);
      expect(known).toMatchObject({ changes: [{ path: "mock-edit.txt", kind: "add" }] });
      expect(change?.payload.details).toEqual(known);
    }, 180_000);
  }
});
