import { describe, expect, it } from "vitest";
import { isoWithMicroseconds, millisecondsOf, systemWallClock, WallClock } from "../../src/kit/wall-clock.js";

/** A wall clock at `offset` from a monotonic one, read in whole milliseconds, both set by the test. */
function fakeSources(offset: number) {
  const state = { offset, monotonic: 1000.25 };
  return {
    state,
    sources: {
      wallMs: () => Math.floor(state.offset + state.monotonic),
      monotonicMs: () => state.monotonic,
    },
  };
}

describe("WallClock", () => {
  it("reads the monotonic clock's fractions within the wall clock's millisecond", () => {
    const { state, sources } = fakeSources(1_700_000_000_000.4);
    const clock = new WallClock(sources, 1_700_000_000_000.4);
    expect(clock.nowMs()).toBeCloseTo(1_700_000_001_000.65, 3);
    state.monotonic += 0.123;
    expect(clock.nowMs()).toBeCloseTo(1_700_000_001_000.773, 3);
  });

  it("never reads outside the millisecond Date.now() reads, whatever its first anchor", () => {
    const { state, sources } = fakeSources(1_700_000_000_000.4);
    const clock = new WallClock(sources, 1_700_000_000_000.4 + 37); // a wrong first guess
    for (let i = 0; i < 2000; i++) {
      state.monotonic += 0.0371;
      expect(Math.floor(clock.nowMs())).toBe(sources.wallMs());
    }
  });

  it("settles on the true anchor from a wrong one, and follows the system time when it is set", () => {
    const { state, sources } = fakeSources(1_700_000_000_000.4);
    const clock = new WallClock(sources, 1_700_000_000_000.4 - 0.9);
    const settle = () => {
      for (let i = 0; i < 500; i++) {
        state.monotonic += 0.0173;
        clock.nowMs();
      }
    };
    settle();
    expect(Math.abs(clock.nowMs() - (state.offset + state.monotonic))).toBeLessThan(0.02);
    state.offset += 5_000.7; // the system's time is set forward
    expect(Math.floor(clock.nowMs())).toBe(sources.wallMs());
    settle();
    expect(Math.abs(clock.nowMs() - (state.offset + state.monotonic))).toBeLessThan(0.02);
    state.offset -= 60_000.2; // and back
    settle();
    expect(Math.abs(clock.nowMs() - (state.offset + state.monotonic))).toBeLessThan(0.02);
  });

  it("on the system's clocks, agrees with Date.now() to the millisecond and has microseconds", () => {
    const before = Date.now();
    const iso = systemWallClock.iso();
    const after = Date.now();
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(Date.parse(iso)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(iso)).toBeLessThanOrEqual(after);
  });
});

describe("isoWithMicroseconds and millisecondsOf", () => {
  it("write six fractional digits and read them back", () => {
    const iso = isoWithMicroseconds(Date.UTC(2026, 11, 2, 7, 5, 1, 123) + 0.4567);
    expect(iso).toBe("2026-12-02T07:05:01.123456Z");
    expect(millisecondsOf(iso)).toBeCloseTo(Date.UTC(2026, 11, 2, 7, 5, 1, 123) + 0.456, 3);
    expect(isoWithMicroseconds(Date.UTC(2026, 0, 1) + 0.0009)).toBe("2026-01-01T00:00:00.000000Z");
    expect(isoWithMicroseconds(Date.UTC(2026, 0, 1) + 0.9995)).toBe("2026-01-01T00:00:00.000999Z");
  });

  it("read a time without sub-millisecond digits as Date.parse does, and a non-time as NaN", () => {
    expect(millisecondsOf("2025-01-31T12:00:00.000Z")).toBe(Date.parse("2025-01-31T12:00:00.000Z"));
    expect(millisecondsOf("2025-01-31T12:00:00Z")).toBe(Date.parse("2025-01-31T12:00:00Z"));
    expect(millisecondsOf("2025-01-31T12:00:00.000250+02:00")).toBeCloseTo(
      Date.parse("2025-01-31T12:00:00.000+02:00") + 0.25,
      3,
    );
    expect(millisecondsOf("yesterday")).toBeNaN();
  });
});
