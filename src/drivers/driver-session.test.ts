import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../contracts/events.js";
import type { BaseMapper } from "../kit/base-mapper.js";
import { findMapperDefinition } from "../mappers/registry.js";
import { DriverSession } from "./driver-session.js";

function deep(levels: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < levels; i++) value = { nested: value };
  return value;
}

describe("DriverSession", () => {
  it("takes a live record nested too deep to write as one too-deep warning, and goes on", async () => {
    const mapper = findMapperDefinition("codex-app-server")?.create({ sessionId: "s" }) as BaseMapper;
    const lines: string[] = [];
    const session = new DriverSession(mapper, { record: (line) => lines.push(line) });
    session.ingest("in", { method: "thread/started", params: deep(20_000) });
    session.ingest("in", { method: "configWarning", params: { summary: "after the deep one" } });
    session.terminate({ kind: "stop", message: "done" });
    const events: RuntimeEvent[] = [];
    for await (const event of session.channel) events.push(event);
    const warning = events[0];
    expect(warning?.type).toBe("runtime.warning");
    expect(JSON.stringify(warning).length).toBeLessThan(10_000);
    expect(events.some((e) => e.type === "config.warning")).toBe(true);
    expect(events.at(-1)?.type).toBe("session.exited");
    expect(lines).toHaveLength(2);
  });
});
