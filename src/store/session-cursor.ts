/**
 * A list cursor: the last listed session's `createdAt` and id (the list's order), opaque to clients. A cursor
 * that does not decode is undefined: the caller answers 400.
 */
export interface CursorPosition {
  createdAt: string;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return base64url(JSON.stringify([position.createdAt, position.id]));
}

export function decodeCursor(cursor: string): CursorPosition | undefined {
  try {
    const value: unknown = JSON.parse(fromBase64url(cursor));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [createdAt, id] = value as unknown[];
    return typeof createdAt === "string" && typeof id === "string" ? { createdAt, id } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a record comes after the cursor in the list's order (newest first, then id descending). */
export function isAfterCursor(record: CursorPosition, cursor: CursorPosition): boolean {
  return (
    record.createdAt < cursor.createdAt || (record.createdAt === cursor.createdAt && record.id < cursor.id)
  );
}

/** Newest first, then id descending: the list's order. */
export function compareListed(a: CursorPosition, b: CursorPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): string {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
