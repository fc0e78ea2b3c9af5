/** A paced stream: a pause after every `everyEvents` events, `delayMs` apart. */
export interface Pace {
  everyEvents: number;
  delayMs: number;
}

/**
 * When the pauses of a paced stream end: on a fixed grid from the stream's start, as a model on another machine
 * produces its tokens whatever the client is doing. Sleeping a fixed interval after each write instead lets every
 * late timer (a busy machine) shift all later events of the stream, so streams held up together stay in step with
 * one another, and a bench's sessions, started apart, can drift into step.
 */
export class PaceGrid {
  #sent = 0;
  #due: number;

  /** `now` is read at the start and at each pause (milliseconds, monotonic). */
  constructor(
    readonly pace: Pace,
    readonly now: () => number,
  ) {
    this.#due = now();
  }

  /**
   * After an event is sent: how long to pause before the next one, to the next point of the grid (0 when behind:
   * catch up), or undefined where the pace has no pause.
   */
  afterEvent(): number | undefined {
    if (++this.#sent % this.pace.everyEvents !== 0) return undefined;
    this.#due += this.pace.delayMs;
    return Math.max(0, this.#due - this.now());
  }
}
