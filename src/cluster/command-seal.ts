import { randomBytes } from "node:crypto";
import { BoundedMap } from "../kit/bounded-map.js";
import type { MessageAuth } from "../store/jetstream/message-auth.js";

/** How far a command's time may be from the receiver's clock (nodes keep NTP time, as leases need). */
const WINDOW_MS = 120_000;
/** Nonces remembered to refuse a replayed command within the window. */
const NONCES = 100_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export type Opened = { ok: true; body: unknown; nonce: string } | { ok: false; reason: string };

/**
 * Commands between nodes travel sealed: `<tag>\n<JSON>`, the JSON `{at, nonce, body}`, the tag an HMAC with the
 * cluster secret over the subject and the JSON. A receiver refuses a missing or wrong tag, a time outside the
 * window and a nonce it has seen (a copied command run twice). The answer is sealed to the request's nonce, so no
 * one but the node asked can answer in its place.
 */
export class CommandSeal {
  readonly #seen = new BoundedMap<string, number>(NONCES);

  constructor(readonly auth: MessageAuth) {}

  seal(subject: string, body: unknown): { data: Uint8Array; nonce: string } {
    const nonce = randomBytes(12).toString("base64url");
    const json = JSON.stringify({ at: Date.now(), nonce, body });
    return { data: this.#wrap("command", [subject, json], json), nonce };
  }

  open(subject: string, data: Uint8Array): Opened {
    const split = unwrap(data);
    if (split === undefined || !this.auth.check("command", [subject, split.json], split.tag))
      return { ok: false, reason: "it carries no valid tag made with the cluster secret" };
    const envelope = parse(split.json) as { at?: unknown; nonce?: unknown; body?: unknown } | undefined;
    const at = envelope?.at;
    const nonce = envelope?.nonce;
    if (typeof at !== "number" || typeof nonce !== "string" || nonce.length === 0)
      return { ok: false, reason: "its envelope is malformed" };
    const now = Date.now();
    if (Math.abs(now - at) > WINDOW_MS) return { ok: false, reason: "it is too old (or a clock is off)" };
    if (this.#seen.has(nonce)) return { ok: false, reason: "it was received before (a replay)" };
    this.#seen.set(nonce, at);
    return { ok: true, body: envelope?.body, nonce };
  }

  sealReply(nonce: string, reply: unknown): Uint8Array {
    const json = JSON.stringify(reply);
    return this.#wrap("reply", [nonce, json], json);
  }

  /** The reply's body, or undefined when its tag is not the one for this request. */
  openReply(nonce: string, data: Uint8Array): unknown {
    const split = unwrap(data);
    if (split === undefined || !this.auth.check("reply", [nonce, split.json], split.tag)) return undefined;
    return parse(split.json);
  }

  #wrap(purpose: "command" | "reply", parts: string[], json: string): Uint8Array {
    return encoder.encode(`${this.auth.tag(purpose, parts)}\n${json}`);
  }
}

function unwrap(data: Uint8Array): { tag: string; json: string } | undefined {
  const text = decoder.decode(data);
  const newline = text.indexOf("\n");
  if (newline <= 0 || newline > 100) return undefined;
  return { tag: text.slice(0, newline), json: text.slice(newline + 1) };
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}
