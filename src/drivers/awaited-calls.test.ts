import { describe, expect, it } from "vitest";
import { AwaitedCalls } from "./awaited-calls.js";

describe("AwaitedCalls", () => {
  it("awaits requests but not notifications, our replies or the methods left out", () => {
    const calls = new AwaitedCalls(["session/prompt"]);
    expect(calls.sent({ jsonrpc: "2.0", id: 1, method: "session/prompt", params: {} })).toBe(false);
    expect(calls.sent({ jsonrpc: "2.0", method: "session/cancel", params: {} })).toBe(false);
    expect(calls.sent({ jsonrpc: "2.0", id: 7, result: {} })).toBe(false);
    expect(calls.anyPending).toBe(false);
    expect(calls.sent({ id: 2, method: "thread/start", params: {} })).toBe(true);
    expect(calls.anyPending).toBe(true);
    expect(calls.answers({ jsonrpc: "2.0", method: "session/update", params: {} })).toBe(false);
    expect(calls.answers({ jsonrpc: "2.0", id: 1, result: {} })).toBe(false);
    expect(calls.answers({ id: "2", result: {} })).toBe(true);
    expect(calls.answers({ id: 2, result: {} })).toBe(false);
    expect(calls.anyPending).toBe(false);
  });

  it("forgets a request given up on", () => {
    const calls = new AwaitedCalls();
    calls.sent({ id: 3, method: "turn/start", params: {} });
    calls.abandon(3);
    expect(calls.anyPending).toBe(false);
    expect(calls.answers({ id: 3, result: {} })).toBe(false);
  });
});
