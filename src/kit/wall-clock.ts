/** What a wall clock reads: the system's wall clock (whole milliseconds) and a monotonic one (fractions). */
export interface ClockSources {
  /** Milliseconds since the epoch, as `Date.now()`: whole, and stepped when the system's time is set. */
  wallMs(): number;
  /** A monotonic clock in milliseconds with fractions, as `performance.now()`. */
  monotonicMs(): number;
}

const SYSTEM: ClockSources = { wallMs: () => Date.now(), monotonicMs: () => performance.now() };

/** One microsecond, in milliseconds: the clock's resolution. */
const MICROSECOND = 0.001;

/**
 * The wall clock to the microsecond, for `createdAt`: `Date.now()` has whole milliseconds only, so a host (or the
 * bench) timing an event against its own clock would read up to 1 ms too much. The monotonic clock supplies the
 * digits below the millisecond, through an anchor (wall − monotonic) kept consistent with every reading of the
 * wall clock: whatever the anchor, a reading truncated to the millisecond is what `Date.now()` read in the same
 * call, so the clock follows the system's time when it is set. Each reading moves the anchor by the least that
 * makes it consistent with that reading, which never takes it further from the true one.
 */
export class WallClock {
  readonly #sources: ClockSources;
  #anchor: number;

  /** `anchor`: the first guess of wall − monotonic (the system's: `performance.timeOrigin`). */
  constructor(sources: ClockSources = SYSTEM, anchor: number = performance.timeOrigin) {
    this.#sources = sources;
    this.#anchor = anchor;
  }

  /** Milliseconds since the epoch, with microseconds. */
  nowMs(): number {
    const wall = this.#sources.wallMs();
    const monotonic = this.#sources.monotonicMs();
    const reading = this.#anchor + monotonic;
    if (reading >= wall && reading < wall + 1) return reading;
    // outside the wall clock's millisecond: the nearest reading inside it, and the anchor that gives it
    const nearest = reading < wall ? wall : wall + 1 - MICROSECOND;
    this.#anchor = nearest - monotonic;
    return nearest;
  }

  /** Now as ISO-8601 with six fractional digits, e.g. `2026-12-02T07:05:01.123456Z`. */
  iso(): string {
    return isoWithMicroseconds(this.nowMs());
  }
}

/** Milliseconds since the epoch (with fractions) as ISO-8601 with six fractional digits. */
export function isoWithMicroseconds(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.min(999, Math.floor((ms - whole) * 1000));
  const iso = new Date(whole).toISOString();
  return `${iso.slice(0, -1)}${String(micros).padStart(3, "0")}Z`;
}

/**
 * An ISO-8601 time as milliseconds since the epoch, keeping the digits below the millisecond that `Date.parse`
 * drops. NaN when it is not a time.
 */
export function millisecondsOf(iso: string): number {
  const ms = Date.parse(iso);
  const below = /\.\d{3}(\d{1,6})(?:Z|[+-]\d{2}:?\d{2})$/.exec(iso)?.[1];
  if (below === undefined || Number.isNaN(ms)) return ms;
  return ms + Number(`0.${below}`);
}

/** The process's wall clock (one anchor for all its sessions). */
export const systemWallClock = new WallClock();

/** Now, as the live events' `createdAt`: the process's wall clock in ISO-8601 with microseconds. */
export const wallClockIso = (): string => systemWallClock.iso();
