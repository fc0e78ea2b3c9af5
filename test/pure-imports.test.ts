import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { expect, it } from "vitest";

const SRC = new URL("../src/", import.meta.url).pathname;
const PURE_ENTRIES = [
  "contracts/index.ts",
  "kit/index.ts",
  "mappers/index.ts",
  "verify/index.ts",
  "projection/index.ts",
  "view/timeline.ts",
  "client/index.ts",
];
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\("([^"]+)"\)|(?:^|\n)\s*import\s+"([^"]+)"/g;

/** Every module the pure entry points reach, with what each imports from outside the project. */
function reach(): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const queue = PURE_ENTRIES.map((entry) => join(SRC, entry));
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    const external: string[] = [];
    seen.set(file, external);
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const specifier = (match[1] ?? match[2] ?? match[3]) as string;
      if (specifier.startsWith(".")) queue.push(join(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else external.push(specifier);
    }
  }
  return seen;
}

/**
 * Browser-safe packages the pure parts may use: zod, jsdiff (pure JS) behind kit/unified-diff.ts, and
 * eventsource-parser (the remote client's SSE).
 */
const ALLOWED = new Set(["zod", "diff", "eventsource-parser"]);

it("the pure parts (contracts, kit, mappers, verify, projection, view, client) import nothing but zod, jsdiff and eventsource-parser: they run in a browser", () => {
  const offending = [...reach()]
    .flatMap(([file, external]) =>
      external.filter((s) => !ALLOWED.has(s)).map((s) => `${relative(SRC, file)} → ${s}`),
    )
    .sort();
  expect(offending).toEqual([]);
  expect(reach().size).toBeGreaterThan(50);
});
