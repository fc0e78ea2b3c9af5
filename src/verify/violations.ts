export type ViolationRule =
  | "invalid-event"
  | "sequence-gap"
  | "referenced-before-opened"
  | "delta-after-completion"
  | "request-resolved-twice"
  | "turn-completed-twice"
  | "turn-open-at-exit"
  | "session-state"
  | "thread-state";

export interface Violation {
  rule: ViolationRule;
  /** The offending event's sequence, when it has one. */
  sequence: number | undefined;
  /** 1-based position of the event in the stream. */
  index: number;
  message: string;
}

export function formatViolation(violation: Violation): string {
  const where = violation.sequence === undefined ? `event #${violation.index}` : `seq ${violation.sequence}`;
  return `${where}: [${violation.rule}] ${violation.message}`;
}
