import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { DriverSession } from "../../src/drivers/driver-session.js";
import type { BaseMapper } from "../../src/kit/base-mapper.js";
import { findMapperDefinition } from "../../src/mappers/registry.js";

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

  it("puts a host's warning in sequence with the session's events, and none after the session exited", async () => {
    const mapper = findMapperDefinition("codex-app-server")?.create({ sessionId: "s" }) as BaseMapper;
    const session = new DriverSession(mapper, {});
    session.ingest("in", { method: "configWarning", params: { summary: "before" } });
    session.warn("the store is unreachable", { reason: "store-unreachable" });
    session.ingest("in", { method: "configWarning", params: { summary: "after" } });
    session.terminate({ kind: "stop", message: "done" });
    session.warn("too late");
    const events: RuntimeEvent[] = [];
    for await (const event of session.channel) events.push(event);
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1));
    const warnings = events.filter((event) => event.type === "runtime.warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.payload).toEqual({
      message: "the store is unreachable",
      detail: { reason: "store-unreachable" },
    });
    expect(events.indexOf(warnings[0] as RuntimeEvent)).toBe(1);
  });
});
