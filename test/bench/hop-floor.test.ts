import { describe, expect, it } from "vitest";
import { startHopFloor } from "../../bench/hop-floor.js";

describe("the bench's hop floor", () => {
  it("times the stamps one child sends the other from `measure` on, and its children end with close", async () => {
    const floor = await startHopFloor();
    try {
      // the sender is connected and stamping before the window opens: nothing before it counts
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(floor.report().samples).toBe(0);
      floor.measure();
      const deadline = Date.now() + 20_000;
      let report = floor.report();
      while (report.samples < 20 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        report = floor.report();
      }
      expect(report.samples).toBeGreaterThanOrEqual(20);
      expect(report.p50Ms).toBeGreaterThan(0);
      expect(report.p50Ms).toBeLessThanOrEqual(report.p99Ms);
      expect(report.p99Ms).toBeLessThanOrEqual(report.maxMs);
    } finally {
      await floor.close();
    }
  });
});
