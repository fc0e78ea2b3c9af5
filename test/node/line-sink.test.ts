import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { LineSink } from "../../src/node/line-sink.js";

function collector(): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString("utf8"));
      done();
    },
  });
  return { stream, writes };
}

describe("LineSink", () => {
  it("writes pieces of about batchBytes: a huge line ends its piece, so no two are ever joined", async () => {
    const { stream, writes } = collector();
    const sink = new LineSink(stream, 100);
    const huge = "h".repeat(1_000);
    await sink.writeLines(["a", "b", huge, "c", huge, huge]);
    await sink.writeLines(["d"]);
    await sink.flush();
    expect(writes.join("")).toBe(`${["a", "b", huge, "c", huge, huge, "d"].join("\n")}\n`);
    expect(writes).toEqual([`a\nb\n${huge}\n`, `c\n${huge}\n`, `${huge}\n`, "d\n"]);
  });
});
