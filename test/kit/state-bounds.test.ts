import { describe, expect, it } from "vitest";
import { repeatedCorpus } from "../../bench/fixture-corpus.js";
import { parseTranscriptLine } from "../../src/kit/transcript.js";
import { MAPPER_DEFINITIONS } from "../../src/mappers/registry.js";
import { liveHeap } from "../support/live-heap.js";

/**
 * Objects reachable from a mapper, not counting the native records it points at (`raw` payloads are the input,
 * not state): a long session must not make this grow (DESIGN.md: a million events, bounded state).
 */
function reachableObjects(root: object): number {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof Map) for (const [k, v] of value) stack.push(k, v);
    else if (value instanceof Set) for (const v of value) stack.push(v);
    else if (Array.isArray(value)) for (const v of value) stack.push(v);
    else
      for (const [key, v] of Object.entries(value)) {
        if (key !== "payload" && key !== "raw") stack.push(v);
      }
  }
  return seen.size;
}

/** Own private state (`#fields`) is invisible to Object.entries: collect the tables through their public sizes. */
function stateSize(mapper: object): number {
  let total = reachableObjects(mapper);
  const visit = (value: unknown, depth: number): void => {
    if (depth > 3 || typeof value !== "object" || value === null) return;
    for (const v of Object.values(value)) {
      const size = (v as { size?: unknown } | null)?.size;
      if (typeof size === "number") total += size;
      visit(v, depth + 1);
    }
  };
  visit(mapper, 0);
  return total;
}

describe("mapper state stays bounded over a long session", () => {
  for (const definition of MAPPER_DEFINITIONS) {
    it(`${definition.source}: mapping 4x more records does not grow its state`, () => {
      // One flat text cut into lines: the corpus's own strings are concatenations that JSON.parse flattens, which
      // frees their pieces as the run goes and would hide growth.
      const lines = repeatedCorpus(definition.source, 64_000).join("\n").split("\n");
      const mapper = definition.create({ sessionId: "bounds", maxOpenEntries: 64 });
      const heap: number[] = [];
      const sizes: number[] = [];
      lines.forEach((line, index) => {
        const entry = parseTranscriptLine(line, index + 1);
        if (entry !== undefined) mapper.map(entry);
        if (index + 1 === 16_000 || index + 1 === lines.length) {
          sizes.push(stateSize(mapper));
          heap.push(liveHeap());
        }
      });
      const [early = 0, late = 0] = sizes;
      const [heapEarly = 0, heapLate = 0] = heap;
      if (process.env.STATE_BOUNDS_LOG)
        console.log(definition.source, sizes, (heapLate - heapEarly) / 2 ** 20);
      expect(late).toBeLessThanOrEqual(early * 1.25 + 500);
      // 48,000 more records (tens of MB of input) may not leave more than 1 MB behind once collected.
      expect(heapLate - heapEarly).toBeLessThan(2 ** 20);
    });
  }
});
