/**
 * Characters a terminal acts on rather than shows: C0 controls but tab and newline (ESC starts colour, cursor and
 * OSC sequences, CR returns to the line's start, BS erases), DEL, the C1 controls (U+009B is a one-character CSI),
 * and the bidirectional overrides and isolates that reorder what follows them. An agent's text with these could
 * draw over a line, so that a command waiting for approval reads as another.
 */
const TERMINAL_CONTROLS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\r": "\\r", "\u001b": "\\e", "\b": "\\b", "\f": "\\f", "\v": "\\v" };

function escaped(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * `text` with every terminal control shown escaped (`\e`, `\r`, `\x07`, `\u202e` …): safe to print between the
 * CLI's own colour codes. Tabs and newlines stay.
 */
export function escapeControls(text: string): string {
  return text.replace(TERMINAL_CONTROLS, escaped);
}
