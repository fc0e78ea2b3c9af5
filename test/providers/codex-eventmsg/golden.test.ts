import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  codexEventMsgDefinition,
  codexRolloutDefinition,
} from "../../../src/providers/codex-eventmsg/definition.js";
import { EVENTMSG_FIXTURES, fixtureNames, ROLLOUT_FIXTURES, readLines, replay, toJsonl } from "./replay.js";

const SUITES = [
  { definition: codexRolloutDefinition, dir: ROLLOUT_FIXTURES },
  { definition: codexEventMsgDefinition, dir: EVENTMSG_FIXTURES },
];

for (const { definition, dir } of SUITES) {
  describe(`${definition.source} golden replays`, () => {
    const names = fixtureNames(dir);
    it("has fixtures", () => expect(names.length).toBeGreaterThanOrEqual(8));
    for (const name of names) {
      it(name, () => {
        const lines = readLines(join(dir, `${name}.jsonl`));
        const output = toJsonl(replay(definition, lines));
        expect(toJsonl(replay(definition, lines))).toBe(output);
        const expectedPath = join(dir, `${name}.expected.jsonl`);
        if (process.env.UPDATE_GOLDEN === "1") writeFileSync(expectedPath, output);
        expect(existsSync(expectedPath), `${expectedPath} missing: run with UPDATE_GOLDEN=1`).toBe(true);
        expect(output).toBe(readFileSync(expectedPath, "utf8"));
      });
    }
  });
}
