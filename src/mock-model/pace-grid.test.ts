import { describe, expect, it } from "vitest";
import { PaceGrid } from "./pace-grid.js";

describe("PaceGrid: a paced stream's pauses", () => {
  it("end on the grid from the stream's start, whatever a wait overslept", () => {
    const grid = new PaceGrid(100, 1_000);
    expect(grid.waitFrom(1_000)).toBe(100);
    // woken 7 ms late: the next wait is shorter, not another full interval
    expect(grid.waitFrom(1_107)).toBe(93);
    expect(grid.waitFrom(1_200)).toBe(100);
  });

  it("catches up after a stall (no wait while behind), then keeps the grid", () => {
    const grid = new PaceGrid(100, 0);
    expect(grid.waitFrom(0)).toBe(100);
    // the process was held up 250 ms past the point due at 100
    expect(grid.waitFrom(350)).toBe(0);
    expect(grid.waitFrom(351)).toBe(0);
    expect(grid.waitFrom(352)).toBe(48);
    expect(grid.waitFrom(400)).toBe(100);
  });
});
