import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HEAD_BYTES, LineSplitter, type OverlongLine } from "../../src/node/line-splitter.js";

/** The lines of `text` split by LineSplitter after cutting its bytes at `cuts`. */
function split(
  text: string | Buffer,
  cuts: readonly number[],
  maxLineBytes?: number,
): (string | OverlongLine)[] {
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  const splitter = new LineSplitter(maxLineBytes);
  const out: (string | OverlongLine)[] = [];
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    splitter.push(bytes.subarray(start, Math.max(start, cut)), out);
    start = Math.max(start, cut);
  }
  splitter.push(bytes.subarray(start), out);
  splitter.end(out);
  return out;
}

/** What readline (crlfDelay: Infinity) gives, without a trailing empty line. */
function reference(text: string): string[] {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

describe("LineSplitter", () => {
  it("splits like readline wherever the chunks are cut, multi-byte characters and \\r\\n included", () => {
    const piece = fc.constantFrom("a", "é", "€", "😀", "\n", "\r", "\r\n", "{}", " ");
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }),
        fc.array(fc.nat(200), { maxLength: 8 }),
        (pieces, cuts) => {
          const text = pieces.join("");
          expect(split(text, cuts)).toEqual(reference(text));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("with a maximum, gives each longer line as its head and length and every other line as without one", () => {
    const piece = fc.constantFrom("a", "é", "😀", "\n", "\r", "\r\n", "bcd");
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }),
        fc.array(fc.nat(200), { maxLength: 8 }),
        fc.integer({ min: 1, max: 12 }),
        (pieces, cuts, max) => {
          const text = pieces.join("");
          const expected = reference(text).map((line) => {
            const bytes = Buffer.byteLength(line);
            return bytes > max ? { kind: "too-long", head: line, bytes } : line;
          });
          expect(split(text, cuts, max)).toEqual(expected);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("keeps a line of exactly the maximum, and drops a longer one to its head and length", () => {
    expect(split("abcd\nef\n", [], 4)).toEqual(["abcd", "ef"]);
    expect(split("abcde\nef\n", [], 4)).toEqual([{ kind: "too-long", head: "abcde", bytes: 5 }, "ef"]);
  });

  it("drops an overlong line across chunks, at the end of input and before a \\r\\n cut in two", () => {
    const long = `${"é".repeat(5_000)}`; // 10,000 bytes
    const text = `ok\n${long}\r\nnext\n${long}`;
    const cuts = [1, 10, 4_000, 10_003, 10_004, 10_005];
    const lines = split(text, cuts, 9_000);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe("ok");
    expect(lines[2]).toBe("next");
    for (const line of [lines[1], lines[3]]) {
      expect(line).toMatchObject({ kind: "too-long", bytes: 10_000 });
      // the head is whole characters: HEAD_BYTES / 2 of the two-byte "é"
      expect((line as OverlongLine).head).toBe("é".repeat(HEAD_BYTES / 2));
    }
    // a multi-byte character cut at HEAD_BYTES is left out of the head
    const odd = split(`a${long}\n`, [], 9_000)[0] as OverlongLine;
    expect(odd.head).toBe(`a${"é".repeat(HEAD_BYTES / 2 - 1)}`);
  });

  it("splits a 64 MB line without a line break, in 64 KiB chunks, whole", () => {
    const size = 64 * 1024 * 1024;
    const bytes = Buffer.alloc(size, "x");
    bytes[size - 1] = "y".charCodeAt(0);
    const cuts = Array.from({ length: size / 65_536 }, (_, index) => index * 65_536);
    const lines = split(bytes, cuts);
    expect(lines).toHaveLength(1);
    const line = lines[0] as string;
    expect(line.length).toBe(size);
    expect(line.endsWith("xy")).toBe(true);
  });
});
