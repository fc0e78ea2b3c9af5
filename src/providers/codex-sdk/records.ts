/**
 * The records a `codex-sdk` transcript holds.
 *
 * `in`: the SDK's ThreadEvents exactly as `Thread.runStreamed()` yields them (the JSONL of
 * `codex exec --experimental-json`). `out`: the host's own actions, which exec has no wire message for, written
 * by the driver in this documented shape so that a replay reproduces the live stream:
 * - `{"type":"turn.input","input": string | UserInput[]}` — a prompt the host sent (one `runStreamed` call).
 *   It yields no event itself: the next native `turn.started` opens the turn and carries the prompt as a
 *   `user_message` item.
 * - `{"type":"turn.interrupt","reason"?: string}` — the host aborted the running turn (exec has no interrupt
 *   message; the driver aborts the process). Closes the open turn as `interrupted`.
 */
export const TURN_INPUT = "turn.input";
export const TURN_INTERRUPT = "turn.interrupt";

export type HostRecord =
  | { type: typeof TURN_INPUT; input: string | Array<{ type: "text"; text: string } | { type: string }> }
  | { type: typeof TURN_INTERRUPT; reason?: string };

/** The pinned surface: `@openai/codex-sdk` 0.163.0 (`dist/index.d.ts`). */
export const CODEX_SDK_PACKAGE = "@openai/codex-sdk";
export const CODEX_SDK_VERSION = "0.163.0";

/** The text of a `turn.input` record: text parts joined as the SDK joins them for exec. */
export function inputText(input: unknown): string | undefined {
  if (typeof input === "string") return input;
  if (!Array.isArray(input)) return undefined;
  const parts: string[] = [];
  for (const part of input) {
    if (typeof part === "object" && part !== null && (part as { type?: unknown }).type === "text") {
      const text = (part as { text?: unknown }).text;
      if (typeof text === "string") parts.push(text);
    }
  }
  return parts.join("\n\n");
}
