import { describe, expect, it } from "vitest";
import { CORPUS_MAX_CHARS, fixtureLines, repeatedCorpus } from "../../bench/fixture-corpus.js";

const chars = (lines: string[]) => lines.reduce((sum, line) => sum + line.length, 0);

describe("the bench's corpus is bounded by size, not lines alone", () => {
  it("claude-code's large records stop at the size bound, whole repetitions or not", () => {
    const bound = 4 * 1024 ** 2;
    const lines = repeatedCorpus("claude-code", 20_000, bound);
    expect(lines.length).toBeGreaterThan(fixtureLines("claude-code").length);
    expect(lines.length).toBeLessThan(20_000);
    expect(chars(lines)).toBeLessThanOrEqual(bound);
  });

  it("small records still reach the line count; the default bound is what `npm run bench` uses", () => {
    expect(repeatedCorpus("codex-app-server", 5_000, 64 * 1024 ** 2).length).toBeGreaterThanOrEqual(5_000);
    expect(CORPUS_MAX_CHARS).toBeLessThanOrEqual(256 * 1024 ** 2);
  });
});
