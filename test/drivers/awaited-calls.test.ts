import { describe, expect, it } from "vitest";
import { AwaitedCalls } from "../../src/drivers/awaited-calls.js";

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

  it("stops awaiting a reply that never comes, so back-pressure is not off for good", () => {
    let now = 1_000;
    const calls = new AwaitedCalls([], 5_000, () => now);
    calls.sent({ id: 4, method: "session/cancel", params: {} });
    now += 4_999;
    expect(calls.anyPending).toBe(true);
    calls.sent({ id: 5, method: "session/set_mode", params: {} });
    now += 2;
    // the first request is past its wait, the second is not
    expect(calls.anyPending).toBe(true);
    expect(calls.answers({ id: 4, result: {} })).toBe(false);
    now += 5_000;
    expect(calls.anyPending).toBe(false);
  });
});
