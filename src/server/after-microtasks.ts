/**
 * Settles once the microtasks queued so far, and those they queue, have run (process.nextTick), but before the
 * event loop's next turn: by then an async iteration has yielded all it had buffered, so what it handed over
 * can be taken as one batch without waiting behind every ready I/O callback, as `setImmediate` would.
 */
export function afterMicrotasks(): Promise<void> {
  return new Promise((resolve) => process.nextTick(resolve));
}
