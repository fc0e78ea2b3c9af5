import type { AgentProcess } from "./agent-process.js";

/**
 * The agent's stderr for an error message: the whole when short, else its first and last lines up to
 * STDERR_NOTE_LINE_CHARS each — whole lines, so a JSON error (codex-acp writes its startup failure as one JSON
 * line) is never cut in the middle unless it is itself longer than that.
 */
export function stderrNote(agent: AgentProcess | undefined): string {
  const text = agent?.stderrText;
  if (text === undefined || text.length === 0) return "";
  return ` (stderr: ${boundedLines(text, STDERR_NOTE_CHARS)})`;
}

const STDERR_NOTE_CHARS = 2_000;

function boundedLines(text: string, max: number): string {
  if (text.length <= max) return text;
  const lines = text.split("\n");
  const head: string[] = [];
  const tail: string[] = [];
  let used = 0;
  // alternately the next line from the start and from the end, while they fit
  for (let i = 0, j = lines.length - 1; i <= j; ) {
    const fromHead = head.length <= tail.length;
    const line = (fromHead ? lines[i] : lines[j]) ?? "";
    if (used + line.length + 1 > max) break;
    used += line.length + 1;
    if (fromHead) head.push(lines[i++] ?? "");
    else tail.unshift(lines[j--] ?? "");
  }
  if (head.length === 0) return `${text.slice(0, max / 2)} … ${text.slice(-max / 2)}`;
  const left = lines.length - head.length - tail.length;
  return [...head, `[… ${left} lines left out …]`, ...tail].join("\n");
}
