/** The exit codes of a command ended by a signal: 128 + the signal's number, as shells report it. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

export interface StopSignals {
  /** The first signal received, if any. */
  readonly received: StopSignal | undefined;
  /** Settles with the first signal. */
  readonly first: Promise<StopSignal>;
  /** Acts as if the signal had come (Ctrl-C read as a key on a terminal in raw mode). */
  trigger(signal: StopSignal): void;
  dispose(): void;
}

/**
 * SIGINT, SIGTERM and SIGHUP while an agent runs: the first calls `onStop` (stop the session cleanly), a second
 * calls `onForce` (stopping hangs: leave now). Node's default — dying at once, the agent orphaned — is replaced
 * until `dispose()`.
 */
export function watchStopSignals(
  onStop: (signal: StopSignal) => void,
  onForce: (signal: StopSignal) => void,
): StopSignals {
  let received: StopSignal | undefined;
  let announce: (signal: StopSignal) => void = () => {};
  const first = new Promise<StopSignal>((resolve) => {
    announce = resolve;
  });
  const handle = (signal: StopSignal) => {
    if (received !== undefined) {
      onForce(signal);
      return;
    }
    received = signal;
    announce(signal);
    onStop(signal);
  };
  const handlers = (Object.keys(SIGNAL_EXIT_CODES) as StopSignal[]).map((signal) => {
    const handler = () => handle(signal);
    process.on(signal, handler);
    return () => process.off(signal, handler);
  });
  const watch: StopSignals = {
    get received() {
      return received;
    },
    first,
    trigger: handle,
    dispose: () => {
      for (const off of handlers) off();
    },
  };
  return watch;
}
