import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fixtureLines } from "../bench/fixture-corpus.js";
import { MAPPER_DEFINITIONS } from "../src/mappers/registry.js";
import { checkMapperRun, transcriptLinesArbitrary } from "./support/mapper-fuzz.js";

const REGRESSIONS = new URL("./fixtures/fuzz-regressions/", import.meta.url);

describe.each(MAPPER_DEFINITIONS.map((d) => [d.source, d] as const))(
  "mapper %s under damaged input",
  (_source, definition) => {
    const lines = fixtureLines(definition.source);

    it("has recorded fixtures to mutate", () => {
      expect(lines.length).toBeGreaterThan(0);
    });

    it("never throws, emits only valid events, accounts for every inbound record, is deterministic", () => {
      fc.assert(
        fc.property(transcriptLinesArbitrary(lines), (input) => {
          const problem = checkMapperRun(definition, input);
          expect(problem?.problem).toBeUndefined();
        }),
        { numRuns: 300, seed: 20261130 },
      );
    });

    it("passes every saved fuzz regression case", () => {
      let cases: string[] = [];
      try {
        cases = readFileSync(new URL(`${definition.source}.jsonl`, REGRESSIONS), "utf8")
          .split("\n")
          .filter(Boolean);
      } catch {
        cases = [];
      }
      for (const line of cases) {
        const saved = JSON.parse(line) as { lines: string[] };
        expect(checkMapperRun(definition, saved.lines)?.problem).toBeUndefined();
      }
    });
  },
);

it("every mapper source is registered", () => {
  expect(MAPPER_DEFINITIONS.map((d) => d.source).sort()).toEqual(
    [
      "acp",
      "claude-sdk",
      "claude-code",
      "codex-app-server",
      "codex-eventmsg",
      "codex-rollout",
      "codex-sdk",
      "cursor-acp",
    ].sort(),
  );
  // a saved regression case must belong to a source that is still registered, or it would never be replayed
  const savedFor = readdirSync(REGRESSIONS)
    .filter((file) => file.endsWith(".jsonl"))
    .map((file) => file.replace(/\.jsonl$/, ""));
  expect(savedFor.filter((source) => !MAPPER_DEFINITIONS.some((d) => d.source === source))).toEqual([]);
});
