import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startCheckpointer } from "../../src/store/sqlite-checkpointer.js";

const dir = mkdtempSync(join(tmpdir(), "checkpointer-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the checkpoint thread", () => {
  it("that ends without being asked (its database cannot be opened) reports why, once", async () => {
    const lost: string[] = [];
    const errors: string[] = [];
    let reported: () => void = () => undefined;
    const reportedOnce = new Promise<void>((resolve) => {
      reported = resolve;
    });
    const checkpointer = startCheckpointer({
      file: join(dir, "no-such-dir", "store.db"),
      everyMs: 10,
      restartFrames: 16,
      onResumed: () => undefined,
      onError: (message) => errors.push(message),
      onLost: (message) => {
        lost.push(message);
        reported();
      },
    });
    await reportedOnce;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(/directory does not exist/);
    expect(errors).toEqual([]);
    expect(checkpointer.restarting).toBe(false);
    await checkpointer.close(); // already ended: resolves at once
  });

  it("asked to close: no onLost, and close resolves once the thread has ended", async () => {
    const lost: string[] = [];
    const checkpointer = startCheckpointer({
      file: join(dir, "store.db"),
      everyMs: 10,
      restartFrames: 16,
      onResumed: () => undefined,
      onError: () => undefined,
      onLost: (message) => lost.push(message),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await checkpointer.close();
    expect(lost).toEqual([]);
  });
});
