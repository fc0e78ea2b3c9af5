import { describe, expect, it } from "vitest";
import { PaceGrid } from "../../src/mock-model/pace-grid.js";

/** A grid read through a clock the test sets: `at(ms)` is the time of the next pause. */
function gridAt(start: number, everyEvents: number, delayMs: number) {
  let clock = start;
  const grid = new PaceGrid({ everyEvents, delayMs }, () => clock);
  return (ms: number) => {
    clock = ms;
    return grid.afterEvent();
  };
}

describe("PaceGrid: a paced stream's pauses", () => {
  it("end on the grid from the stream's start, whatever a wait overslept", () => {
    const at = gridAt(1_000, 1, 100);
    expect(at(1_000)).toBe(100);
    // woken 7 ms late: the next wait is shorter, not another full interval
    expect(at(1_107)).toBe(93);
    expect(at(1_200)).toBe(100);
  });

  it("catches up after a stall (no wait while behind), then keeps the grid", () => {
    const at = gridAt(0, 1, 100);
    expect(at(0)).toBe(100);
    // the process was held up 250 ms past the point due at 100
    expect(at(350)).toBe(0);
    expect(at(351)).toBe(0);
    expect(at(352)).toBe(48);
    expect(at(400)).toBe(100);
  });

  it("pauses only after every `everyEvents` events", () => {
    const at = gridAt(0, 3, 30);
    expect([at(0), at(0), at(0), at(10), at(10), at(10)]).toEqual([
      undefined,
      undefined,
      30,
      undefined,
      undefined,
      50,
    ]);
  });
});
