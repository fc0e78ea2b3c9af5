import type { SessionRecord } from "../types.js";
import type { MessageAuth } from "./message-auth.js";

/** A tagged record's first line: this marker, a space, the tag; the record's JSON follows on the next line. */
const MARKER = "PR1 ";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * How a registry record is kept in its KV entry. With a cluster secret: `PR1 <tag>\n<JSON>`, the tag over the key
 * and the JSON, so a record written by anyone without the secret — or copied from another key — is refused.
 * Without one: the JSON alone (a tagged record is still read, its tag unchecked).
 */
export function encodeRecord(auth: MessageAuth | undefined, record: SessionRecord): Uint8Array {
  const json = JSON.stringify(record);
  if (auth === undefined) return encoder.encode(json);
  return encoder.encode(`${MARKER}${auth.tag("registry", [record.id, json])}\n${json}`);
}

/** The record in an entry, or `forged` when a secret is set and the tag is missing or wrong. */
export function decodeRecord(
  auth: MessageAuth | undefined,
  key: string,
  value: Uint8Array,
): SessionRecord | "forged" {
  const text = decoder.decode(value);
  let json = text;
  let tag: string | undefined;
  if (text.startsWith(MARKER)) {
    const newline = text.indexOf("\n");
    if (newline < 0) return "forged";
    tag = text.slice(MARKER.length, newline);
    json = text.slice(newline + 1);
  }
  if (auth !== undefined && !auth.check("registry", [key, json], tag)) return "forged";
  try {
    const record = JSON.parse(json) as SessionRecord;
    if (record === null || typeof record !== "object" || record.id !== key) return "forged";
    return record;
  } catch {
    return "forged";
  }
}
