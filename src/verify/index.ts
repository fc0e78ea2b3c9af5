export * from "./stream-verifier.js";
export * from "./violations.js";

import { StreamVerifier } from "./stream-verifier.js";
import type { Violation } from "./violations.js";

/** Verifies a whole stream held in memory. */
export function verifyEvents(events: Iterable<unknown>): Violation[] {
  const verifier = new StreamVerifier();
  const violations: Violation[] = [];
  for (const event of events) violations.push(...verifier.check(event));
  violations.push(...verifier.finish());
  return violations;
}
