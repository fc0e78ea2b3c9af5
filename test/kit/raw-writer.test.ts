import { describe, expect, it } from "vitest";
import { raw } from "../../src/kit/event-builder.js";
import { RawWriter } from "../../src/kit/raw-writer.js";

describe("RawWriter", () => {
  it("writes raw() records as JSON.stringify does, with the payload's JSON as given, while tags change", () => {
    const writer = new RawWriter();
    const payload = { method: "turn/started", params: { n: 1, text: 'a "b" \u2028' } };
    const records = [
      raw("codex.app-server.notification", payload, "turn/started"),
      raw("codex.app-server.notification", payload, "item/started"),
      raw("codex.app-server.notification", payload),
      raw("acp.notification", payload, undefined, 'agent_"message"'),
      raw("acp.notification", payload, "session/update", "tool_call"),
      raw("acp.notification", payload, "session/update", "tool_call"),
    ];
    for (const record of records) {
      expect(writer.json(record, JSON.stringify(payload))).toBe(JSON.stringify(record));
    }
  });

  it("declines records of another shape", () => {
    const writer = new RawWriter();
    const payload = { a: 1 };
    const declined: object[] = [
      { payload, source: "x" },
      { source: "x", payload, messageType: "m", method: "x" },
      { source: "x", payload, extra: 1 },
      { source: 1, payload },
      { source: "x", payload, method: 2 },
      { source: "x", payload, method: undefined },
      Object.assign(Object.create({ inherited: 1 }) as object, { source: "x", payload }),
    ];
    for (const record of declined) expect(writer.json(record, "{}"), JSON.stringify(record)).toBeUndefined();
  });
});
