import { describe, expect, it } from "vitest";
import { AwaitedReplies } from "./awaited-replies.js";

describe("AwaitedReplies", () => {
  it("lets the reply to an awaited request through and lifts a pause when a request is sent", async () => {
    const awaited = new AwaitedReplies();
    expect(awaited.mayPause).toBe(true);
    awaited.sent({ jsonrpc: "2.0", id: 1, method: "session/prompt", params: {} });
    expect(awaited.mayPause).toBe(true); // a prompt's reply ends a turn: back-pressure still applies
    let drained: (() => void) | undefined;
    let lifted = false;
    const pause = awaited.pause((resume) => {
      drained = resume;
    });
    void pause.then(() => {
      lifted = true;
    });
    awaited.sent({ jsonrpc: "2.0", id: 2, method: "session/set_mode", params: {} });
    await pause;
    expect(lifted).toBe(true); // lifted by the request, before any drain
    expect(drained).toBeTypeOf("function");
    expect(awaited.mayPause).toBe(false);
    expect(awaited.answers({ jsonrpc: "2.0", method: "session/update", params: {} })).toBe(false);
    expect(awaited.answers({ jsonrpc: "2.0", id: 1, result: {} })).toBe(false);
    expect(awaited.answers({ jsonrpc: "2.0", id: 2, result: {} })).toBe(true);
    expect(awaited.answers({ jsonrpc: "2.0", id: 2, result: {} })).toBe(false);
    expect(awaited.mayPause).toBe(true);
  });

  it("a pause with nothing awaited ends when the host has drained the queue, not before", async () => {
    const awaited = new AwaitedReplies();
    let drained: (() => void) | undefined;
    let lifted = false;
    const pause = awaited.pause((resume) => {
      drained = resume;
    });
    void pause.then(() => {
      lifted = true;
    });
    awaited.sent({ jsonrpc: "2.0", method: "session/cancel", params: {} }); // a notification awaits nothing
    awaited.sent({ jsonrpc: "2.0", id: 3, result: {} }); // nor does our reply to the agent
    await Promise.resolve();
    expect(lifted).toBe(false);
    expect(awaited.mayPause).toBe(true);
    drained?.();
    await pause;
    expect(lifted).toBe(true);
  });
});
