/**
 * Canonical ids minted from native keys. The same session id, kind and native key always give the same id,
 * so a replay or a resume reproduces the ids; the native key itself never appears in the id.
 */
export type IdKind = "thread" | "turn" | "item" | "request" | "task";

const PREFIX: Record<IdKind, string> = {
  thread: "thr",
  turn: "turn",
  item: "item",
  request: "req",
  task: "task",
};

export function mintId(sessionId: string, kind: IdKind, nativeKey: string): string {
  return `${PREFIX[kind]}_${hash64(`${sessionId}\u0000${kind}\u0000${nativeKey}`)}`;
}

/** FNV-1a over UTF-16 code units, two 32-bit lanes with different offsets: 64 bits, hex. */
export function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}
