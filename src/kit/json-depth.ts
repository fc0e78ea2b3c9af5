/**
 * Deeply nested values without the call stack. `JSON.parse` reads any depth, but `JSON.stringify`, `String()`,
 * `structuredClone` and every recursive walk overflow the stack somewhere past a few thousand levels (less when
 * the stack is already deep). Input is refused past MAX_JSON_DEPTH; what must still be written is written here,
 * by loops with an explicit stack. Pure: no Node built-ins.
 */

/** Nesting beyond this many levels of objects and arrays is refused on input; no real agent traffic comes close. */
export const MAX_JSON_DEPTH = 512;

/** How much of a record that cannot be kept a warning carries as its raw (characters). */
export const RAW_PREVIEW_CHARS = 4096;

/**
 * Whether `value` nests objects and arrays more than `limit` levels deep (a scalar is at depth 0, `[]` and `{}`
 * at 1). Iterative, so safe at any depth; stops at the first container past the limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (limit < 1) return true;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop() as object;
    const depth = (depths.pop() as number) + 1;
    if (Array.isArray(node)) {
      for (const child of node) {
        if (typeof child !== "object" || child === null) continue;
        if (depth > limit) return true;
        nodes.push(child);
        depths.push(depth);
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const child = record[key];
      if (typeof child !== "object" || child === null) continue;
      if (depth > limit) return true;
      nodes.push(child);
      depths.push(depth);
    }
  }
  return false;
}

/** The first `maxChars` characters of `text`, never ending in the first half of a surrogate pair. */
export function textPreview(text: string, maxChars = RAW_PREVIEW_CHARS): string {
  if (text.length <= maxChars) return text;
  const end = isHighSurrogate(text.charCodeAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  return text.slice(0, end);
}

/**
 * `JSON.stringify(value)` for JSON data (what `JSON.parse` returns; `toJSON` is honoured) written by a loop, so
 * any depth is fine, and cut after `maxChars` characters when given (a preview: it stops writing there, so a
 * preview of a huge value costs no more than the preview). Undefined where JSON.stringify gives undefined; throws
 * as it does on a cycle or a BigInt. No replacer, no indentation.
 */
export function jsonWithoutRecursion(
  value: unknown,
  maxChars = Number.POSITIVE_INFINITY,
): string | undefined {
  const root = prepare(value, "");
  if (root === SKIP) return undefined;
  const writer = new LoopWriter(maxChars);
  writer.enter(root);
  writer.run();
  return writer.text();
}

const SKIP = Symbol("skip");

interface Frame {
  node: object;
  /** The object's keys; undefined for an array. */
  keys: string[] | undefined;
  index: number;
  /** Whether a member has been written (objects: the next one needs a comma). */
  wrote: boolean;
}

class LoopWriter {
  readonly #parts: string[] = [];
  readonly #frames: Frame[] = [];
  /** The containers being written, to refuse a cycle as JSON.stringify does. */
  readonly #open = new Set<object>();
  #size = 0;

  constructor(readonly maxChars: number) {}

  enter(value: unknown): void {
    if (typeof value !== "object" || value === null) {
      this.#put(scalarJson(value));
      return;
    }
    if (this.#open.has(value)) throw new TypeError("Converting circular structure to JSON");
    this.#open.add(value);
    const isArray = Array.isArray(value);
    this.#put(isArray ? "[" : "{");
    this.#frames.push({
      node: value,
      keys: isArray ? undefined : Object.keys(value),
      index: 0,
      wrote: false,
    });
  }

  run(): void {
    const frames = this.#frames;
    while (frames.length > 0 && this.#size < this.maxChars) {
      const frame = frames[frames.length - 1] as Frame;
      if (frame.keys === undefined) this.#arrayStep(frame);
      else this.#objectStep(frame, frame.keys);
    }
  }

  text(): string {
    const text = this.#parts.join("");
    return text.length > this.maxChars ? textPreview(text, this.maxChars) : text;
  }

  #arrayStep(frame: Frame): void {
    const array = frame.node as unknown[];
    if (frame.index >= array.length) {
      this.#close(frame, "]");
      return;
    }
    const index = frame.index++;
    if (index > 0) this.#put(",");
    const value = prepare(array[index], String(index));
    if (value === SKIP) this.#put("null");
    else this.enter(value);
  }

  #objectStep(frame: Frame, keys: string[]): void {
    const record = frame.node as Record<string, unknown>;
    while (frame.index < keys.length) {
      const key = keys[frame.index++] as string;
      const value = prepare(record[key], key);
      if (value === SKIP) continue;
      this.#put(`${frame.wrote ? "," : ""}${JSON.stringify(key)}:`);
      frame.wrote = true;
      this.enter(value);
      return;
    }
    this.#close(frame, "}");
  }

  #close(frame: Frame, bracket: string): void {
    this.#frames.pop();
    this.#open.delete(frame.node);
    this.#put(bracket);
  }

  #put(text: string): void {
    this.#parts.push(text);
    this.#size += text.length;
  }
}

/** The value JSON.stringify writes for `value` under `key`: after toJSON; SKIP for what it leaves out. */
function prepare(value: unknown, key: string): unknown {
  let current = value;
  if (typeof current === "object" && current !== null) {
    const toJSON = (current as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") current = toJSON.call(current, key);
  }
  if (current === undefined || typeof current === "function" || typeof current === "symbol") return SKIP;
  if (typeof current === "bigint") throw new TypeError("Do not know how to serialize a BigInt");
  return current;
}

/** A prepared value that is not a container (prepare has left out what JSON.stringify leaves out). */
function scalarJson(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  throw new TypeError(`Do not know how to serialize a ${typeof value}`);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
