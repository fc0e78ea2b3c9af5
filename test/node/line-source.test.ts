import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readLines } from "../../src/node/line-source.js";

async function linesOf(chunks: string[]): Promise<string[]> {
  const input = new PassThrough();
  for (const chunk of chunks) input.write(Buffer.from(chunk));
  input.end();
  const out: string[] = [];
  for await (const line of readLines("-", input)) out.push(line);
  return out;
}

describe("readLines", () => {
  it("splits on \\n, \\r\\n and a lone \\r, also when a break or a character is split across chunks", async () => {
    expect(await linesOf(["a\nb\r\nc\rd"])).toEqual(["a", "b", "c", "d"]);
    expect(await linesOf(["a\r", "\nb\n"])).toEqual(["a", "b"]);
    expect(await linesOf(["a", "b", "\n", "\n", "c\r"])).toEqual(["ab", "", "c"]);
    expect(await linesOf(['{"x":"é', 'ü"}\n'])).toEqual(['{"x":"éü"}']);
    const euro = Buffer.from("€\n");
    const input = new PassThrough();
    input.write(euro.subarray(0, 1));
    input.end(euro.subarray(1));
    const out: string[] = [];
    for await (const line of readLines("-", input)) out.push(line);
    expect(out).toEqual(["€"]);
  });
});
