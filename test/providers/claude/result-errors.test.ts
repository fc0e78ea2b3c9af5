import { expect, it } from "vitest";
import type { TranscriptEntry } from "../../../src/kit/transcript.js";
import { fixtureEntries, replay } from "./test-helpers.js";

/**
 * Hand-written variation of a real record (marked): the recorded error-500 result with the `[ede_diagnostic]`
 * line Claude Code adds to `errors` of an interrupted or failed run, which its own clients never show.
 */
function withDiagnostic(entries: TranscriptEntry[]): TranscriptEntry[] {
  return entries.map((entry) => {
    const msg = entry.kind === "message" ? (entry.msg as Record<string, unknown>) : undefined;
    if (msg?.type !== "result") return entry;
    return {
      ...entry,
      msg: {
        ...msg,
        subtype: "error_during_execution",
        is_error: true,
        errors: [
          "[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null",
          "API Error: 500",
        ],
      },
    } as TranscriptEntry;
  });
}

it("a result's errors reach the turn and the error without Claude Code's [ede_diagnostic] line (raw keeps it)", () => {
  const events = replay(withDiagnostic(fixtureEntries("error-500")));
  const completed = events.find((e) => e.type === "turn.completed");
  const error = events.filter((e) => e.type === "runtime.error").at(-1);
  expect(completed?.payload).toMatchObject({ state: "failed", errorMessage: "API Error: 500" });
  expect(error?.payload).toMatchObject({ message: "API Error: 500" });
  expect(JSON.stringify(completed?.raw)).toContain("[ede_diagnostic]");
});
