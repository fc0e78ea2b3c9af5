import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { acpDefinition } from "../../../src/providers/acp/definition.js";

// Hand-written records: the maintained adapters never call fs/* or terminal/* of a client that did not offer them,
// so no recording of ours holds such a call; the shapes are ACP's (initialize, fs/read_text_file, terminal/create).
const initialize = (fs: boolean, terminal: boolean) => ({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs }, terminal },
  },
});
const agentCall = (id: number, method: string, params: object) => ({ jsonrpc: "2.0", id, method, params });
const refusal = (id: number) => ({
  jsonrpc: "2.0",
  id,
  error: { code: -32601, message: "Method not found" },
});

function run(fs: boolean, terminal: boolean): RuntimeEvent[] {
  const mapper = acpDefinition.create({ sessionId: "s" });
  const records: Array<["in" | "out", unknown]> = [
    ["out", initialize(fs, terminal)],
    ["in", agentCall(7, "fs/read_text_file", { sessionId: "n", path: "/w/a.txt" })],
    ["out", refusal(7)],
    ["in", agentCall(8, "terminal/create", { sessionId: "n", command: "ls" })],
    ["out", refusal(8)],
  ];
  return records.flatMap(([dir, msg]) => mapper.map({ kind: "message", dir, msg }));
}

describe("ACP calls of capabilities the client did not offer", () => {
  it("are provider.events, not requests a host could be asked to answer, and our refusal only correlates", () => {
    const events = run(false, false);
    expect(events.map((e) => e.type)).toEqual(["provider.event", "provider.event"]);
    expect(events.map((e) => (e.type === "provider.event" ? e.payload : undefined))).toEqual([
      { name: "fs/read_text_file", summary: "refused: the client does not offer fs.readTextFile" },
      { name: "terminal/create", summary: "refused: the client does not offer terminal" },
    ]);
  });

  it("stay requests when the client offered them (a recording of a client that serves fs and terminals)", () => {
    const types = run(true, true).map((e) => e.type);
    expect(types.filter((t) => t === "request.opened")).toHaveLength(2);
    expect(types.filter((t) => t === "request.resolved")).toHaveLength(2);
  });
});
