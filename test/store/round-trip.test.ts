import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { tempDataDir } from "./store-fixture.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");

async function goldenEventFiles(): Promise<string[]> {
  const entries = await readdir(FIXTURES, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".expected.jsonl"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The bytes of each distinct native record's JSON: what storing every record once must come to. */
function distinctRawBytes(events: readonly RuntimeEvent[]): number {
  const distinct = new Set(
    events.flatMap((event) => (event.raw === undefined ? [] : [JSON.stringify(event.raw)])),
  );
  return [...distinct].reduce((sum, json) => sum + Buffer.byteLength(json), 0);
}

it("every golden events file comes back byte-identical, each native record stored once per session", async () => {
  const files = await goldenEventFiles();
  expect(files.length).toBeGreaterThan(50);
  const data = await tempDataDir();
  let inlineBytes = 0;
  let storedBytes = 0;
  let events = 0;
  try {
    // one store per file: the goldens of a provider share their session id
    for (const [index, file] of files.entries()) {
      const text = await readFile(file, "utf8");
      const input = text.split("\n").filter((line) => line.length > 0);
      const parsed = input.map((line) => JSON.parse(line) as RuntimeEvent);
      const sessionId = parsed[0]?.sessionId as string;
      // durability is not what this test is about: no fsync per commit
      const store = await openSqliteStore({ dataDir: join(data.dir, String(index)), synchronous: "normal" });
      try {
        // appended in chunks of varying size, as a driver's batches would come
        for (let at = 0; at < parsed.length; at += 1 + (at % 7)) {
          await store.append(sessionId, parsed.slice(at, at + 1 + (at % 7)));
        }
        const back = await store.readEvents(sessionId, 0, 1_000_000);
        expect(
          back.map((event) => JSON.stringify(event)),
          file,
        ).toEqual(input);
        const sizes = store.storedBytes();
        expect(sizes.raws, file).toBe(distinctRawBytes(parsed));
        storedBytes += sizes.events + sizes.raws;
        inlineBytes += input.reduce((sum, line) => sum + Buffer.byteLength(line), 0);
        events += input.length;
      } finally {
        await store.close();
      }
    }
  } finally {
    await data.remove();
  }
  const ratio = inlineBytes / storedBytes;
  console.log(
    `round trip: ${files.length} golden files, ${events} events, ${inlineBytes} bytes with raw inline, ${storedBytes} stored (${ratio.toFixed(2)}x smaller)`,
  );
  expect(ratio).toBeGreaterThan(1.1);
});
