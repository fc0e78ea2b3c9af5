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

/** Marks a resumed run in an id scope: a NUL, which no session id a host gives has. */
const RUN_MARK = "\u0000run:";

/**
 * The scope a mapper mints its ids in (what it passes to `mintId` and `IdTable` as the session id). A resumed
 * session (`sequenceAfter` > 0) restarts the agent, whose native keys may repeat the earlier runs' (Claude's
 * counted turns, a restarted model server's message ids): its turn, item, request and task ids are minted after a
 * run mark, so they cannot collide with those of the runs before. Threads are minted without it: the same native
 * thread resumed is the same canonical thread. A fresh session's scope is its id, so replays are unchanged.
 */
export function idScopeOf(options: { sessionId: string; sequenceAfter?: number | undefined }): string {
  const after = options.sequenceAfter ?? 0;
  return after > 0 ? `${options.sessionId}${RUN_MARK}${after}` : options.sessionId;
}

export function mintId(sessionId: string, kind: IdKind, nativeKey: string): string {
  const prefix = prefixState(sessionId, kind);
  return prefix.tag + hashFrom(prefix.a, prefix.b, nativeKey);
}

/** FNV-1a over UTF-16 code units, two 32-bit lanes with different offsets: 64 bits, hex. */
export function hash64(text: string): string {
  return hashFrom(0x811c9dc5, 0x050c5d1f, text);
}

/**
 * The hash lanes after `${sessionId}\0${kind}\0`, the part of every minted id's hashed text that one mapper
 * repeats for each of its ids. FNV-1a is streamed, so hashing the native key on from this state gives the same
 * id as hashing the whole text, without building that text or hashing the prefix again.
 */
interface PrefixState {
  sessionId: string;
  /** `thr_`, `item_`, …: the id's visible prefix. */
  tag: string;
  a: number;
  b: number;
}

/** The latest prefix state per kind (a process usually maps one session at a time). */
const PREFIX_STATES = new Map<IdKind, PrefixState>();

function prefixState(sessionId: string, kind: IdKind): PrefixState {
  const cached = PREFIX_STATES.get(kind);
  if (cached !== undefined && cached.sessionId === sessionId) return cached;
  const scope = kind === "thread" ? sessionId.split(RUN_MARK, 1)[0] : sessionId;
  const text = `${scope}\u0000${kind}\u0000`;
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 15);
  }
  const state = { sessionId, tag: `${PREFIX[kind]}_`, a, b };
  PREFIX_STATES.set(kind, state);
  return state;
}

/** hash64's loop from lanes `a` and `b` over `text`, then the lanes as 16 hex digits. */
function hashFrom(a: number, b: number, text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 15);
  }
  return hex16(a, b);
}

const HEX_DIGITS = Array.from("0123456789abcdef", (digit) => digit.charCodeAt(0));

/** The 4 bits of `lane` at `shift` as a hex digit's char code. */
function digit(lane: number, shift: number): number {
  return HEX_DIGITS[(lane >>> shift) & 15] as number;
}

/**
 * Both lanes as 16 lower-case hex digits, zero-padded: `(lane >>> 0).toString(16).padStart(8, "0")` twice,
 * in one flat string (several times faster than toString + padStart + concatenation).
 */
function hex16(a: number, b: number): string {
  return String.fromCharCode(
    digit(a, 28),
    digit(a, 24),
    digit(a, 20),
    digit(a, 16),
    digit(a, 12),
    digit(a, 8),
    digit(a, 4),
    digit(a, 0),
    digit(b, 28),
    digit(b, 24),
    digit(b, 20),
    digit(b, 16),
    digit(b, 12),
    digit(b, 8),
    digit(b, 4),
    digit(b, 0),
  );
}
