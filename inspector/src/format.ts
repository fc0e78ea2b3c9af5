/** Text shown in one block is cut to its last this-many characters (the whole of it stays in the stream). */
export const MAX_BLOCK_CHARS = 64_000;

export function clip(text: string, max = MAX_BLOCK_CHARS): { text: string; cut: number } {
  return text.length <= max ? { text, cut: 0 } : { text: text.slice(-max), cut: text.length - max };
}

/** JSON for display; a value that cannot be printed (too deep, cyclic) says so instead of throwing. */
export function printJson(value: unknown, max = 8_000): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    return "[not printable]";
  }
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function time(iso: string | undefined): string {
  if (iso === undefined) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleTimeString([], { hour12: false });
}

export function count(n: number | undefined): string {
  return n === undefined ? "–" : n.toLocaleString("en-US");
}

export function duration(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`;
}

/** A date and time for lists: the time alone today, the day and time otherwise. */
export function dateTime(iso: string | undefined, now = new Date()): string {
  if (iso === undefined) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const clock = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
  if (date.toDateString() === now.toDateString()) return `today ${clock}`;
  const day = date.toLocaleDateString([], {
    day: "numeric",
    month: "short",
    ...(date.getFullYear() === now.getFullYear() ? {} : { year: "numeric" }),
  });
  return `${day} ${clock}`;
}

export function usd(value: number | undefined): string {
  return value === undefined ? "–" : `$${value.toFixed(value < 1 ? 4 : 2)}`;
}
