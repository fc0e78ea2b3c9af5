import { readdirSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { verifyEvents } from "../../src/verify/index.js";
import { CliProcess, removePrivateTmps } from "./support/cli-process.js";

afterAll(removePrivateTmps);

const of = <T extends RuntimeEvent["type"]>(events: readonly RuntimeEvent[], type: T) =>
  events.filter((e): e is Extract<RuntimeEvent, { type: T }> => e.type === type);

// The real adapters against the mock model: the question reaches the terminal and the typed choice goes back.
describe("run --approve ask: an ACP adapter's question asked on the terminal (pseudo-terminal)", () => {
  for (const [agent, field] of [
    ["claude-agent-acp", "question_0"],
    ["codex-acp", "mock_colour"],
  ] as const) {
    it(`${agent}: the colour question, answered "1" (its first choice)`, async () => {
      const cli = new CliProcess(
        [
          "run",
          "--provider",
          "acp",
          "--agent",
          agent,
          "--mock",
          "--json",
          "--timeout",
          "120",
          "mock:question ask",
        ],
        { tty: true },
      );
      await cli.waitFor("err", /Which colour should the mock use\?[\s\S]*answer/);
      cli.type("1\r");
      // the forms also have an optional free-text field (claude-agent-acp "Other", codex-acp a note): skipped
      await cli.waitFor("err", /question 2 of 2[\s\S]*empty to skip/);
      cli.type("\r");
      expect(await cli.exited).toBe(0);
      const events = cli.events();
      expect(verifyEvents(events)).toEqual([]);
      expect(of(events, "request.opened").map((e) => e.payload.requestType)).toEqual(["tool_user_input"]);
      expect(of(events, "user-input.resolved")[0]?.payload.answers).toEqual({
        [field]: "Blue (Recommended)",
      });
      expect(readdirSync(cli.tmp).filter((name) => name.startsWith("provider-runtime-run-"))).toEqual([]);
    }, 90_000);
  }
});
