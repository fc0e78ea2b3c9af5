import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { projectEvents } from "../../src/projection/reducer.js";
import { ThreadView } from "../../src/projection/thread-view.js";

/** The zod ThreadView (published in the OpenAPI document) describes what the reducer really builds. */

const FIXTURES = join(import.meta.dirname, "../fixtures");

function goldenFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return goldenFiles(path);
    return entry.name.endsWith(".expected.jsonl") ? [path] : [];
  });
}

describe("the ThreadView schema", () => {
  const files = goldenFiles(FIXTURES);

  it("finds the recorded streams", () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it("accepts the projection of every recorded stream, strictly (no field the schema does not name)", () => {
    const failures: string[] = [];
    for (const file of files) {
      const events = readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as RuntimeEvent);
      const result = ThreadView.safeParse(projectEvents(events));
      if (!result.success) failures.push(`${file}: ${JSON.stringify(result.error.issues[0])}`);
    }
    expect(failures).toEqual([]);
  });

  it("refuses a view with a field it does not name", () => {
    const view = projectEvents([]);
    expect(ThreadView.safeParse(view).success).toBe(true);
    expect(ThreadView.safeParse({ ...view, extra: 1 }).success).toBe(false);
    expect(ThreadView.safeParse({ ...view, items: [{ itemId: "i", itemType: "x" }] }).success).toBe(false);
  });
});
