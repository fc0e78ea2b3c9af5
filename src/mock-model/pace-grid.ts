/**
 * When the pauses of a paced stream end: on a fixed grid from the stream's start, as a model on another machine
 * produces its tokens whatever the client is doing. Sleeping a fixed interval after each write instead lets every
 * late timer (a busy machine) shift all later events of the stream, so streams held up together stay in step with
 * one another, and a bench's sessions, started apart, can drift into step.
 */
export class PaceGrid {
  #due: number;

  constructor(
    readonly intervalMs: number,
    start: number,
  ) {
    this.#due = start;
  }

  /** At a pause: how long to wait from `now` for the next point of the grid (0 when behind: catch up). */
  waitFrom(now: number): number {
    this.#due += this.intervalMs;
    return Math.max(0, this.#due - now);
  }
}
