import { describe, expect, it } from "vitest";
import { type HopFloor, startHopFloor } from "../../bench/hop-floor.js";
import { argvOf, descendants } from "../hygiene/procs.js";

/** This process's children that run the hop probe (the receiver and the sender). */
const probes = () =>
  descendants(process.pid).filter((proc) => argvOf(proc.pid)?.some((arg) => arg.endsWith("/hop-probe.mjs")));

async function samplesReach(floor: HopFloor, count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (floor.report().samples < count && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("the bench's hop floor", () => {
  it("times the stamps one child sends the other from `measure` on, and its children end with close", async () => {
    const floor = await startHopFloor();
    try {
      floor.measure();
      await samplesReach(floor, 20);
      const report = floor.report();
      expect(report.samples).toBeGreaterThanOrEqual(20);
      expect(report.p50Ms).toBeGreaterThan(0);
      expect(report.p50Ms).toBeLessThanOrEqual(report.p99Ms);
      expect(report.p99Ms).toBeLessThanOrEqual(report.maxMs);
      // a new window keeps none of the stamps timed before it, while they go on arriving
      floor.measure();
      expect(floor.report().samples).toBe(0);
      await samplesReach(floor, 1);
      expect(floor.report().samples).toBeGreaterThanOrEqual(1);
      expect(probes()).toHaveLength(2);
    } finally {
      await floor.close();
    }
    // close resolves only once both have exited (a zombie has no argv: it is reaped by then)
    expect(probes()).toEqual([]);
  });
});
