import { describe, expect, it, vi } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { createAcpDriver } from "../../src/providers/acp/driver.js";

vi.mock("@agentclientprotocol/sdk/unstable", () => {
  throw Object.assign(new Error("Cannot find package '@agentclientprotocol/sdk'"), {
    code: "ERR_MODULE_NOT_FOUND",
  });
});

describe("an ACP driver whose SDK cannot be imported", () => {
  it("rejects start() and ends its stream with session.exited (error); no agent is started", async () => {
    const driver = createAcpDriver({ cwd: process.cwd(), agentCommand: ["sleep", "30"] });
    const events: RuntimeEvent[] = [];
    const reading = (async () => {
      for await (const event of driver.events) events.push(event);
    })();
    await expect(driver.start()).rejects.toThrow(/could not load the ACP SDK/);
    await reading;
    expect(events.at(-1)?.type).toBe("session.exited");
    expect(events.at(-1)?.payload).toMatchObject({ exitKind: "error" });
    expect(events.some((e) => e.type === "runtime.error")).toBe(true);
  });
});
