import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../src/contracts/events.js";

const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;
const goldens = readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".expected.jsonl"))
  .sort();
const WRAPPED = /^(\S*\/)?(ba|z|da|k)?sh -l?c /;

/** Issue #15's done-when, over the canonical output of every recorded fixture of every source. */
describe.each(goldens)("%s: completed items carry the details hosts render", (file) => {
  const completed = readFileSync(join(FIXTURES, file), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RuntimeEvent)
    .filter((event) => event.type === "item.completed");

  it("file changes have path and kind, commands an unwrapped command, MCP calls server and tool", () => {
    for (const { payload } of completed) {
      if (payload.itemType === "file_change") {
        expect(payload.details?.changes.length ?? 0).toBeGreaterThan(0);
        for (const change of payload.details?.changes ?? []) expect(change.path.length).toBeGreaterThan(0);
      }
      if (payload.itemType === "command_execution") {
        expect(payload.details?.command.length ?? 0).toBeGreaterThan(0);
        expect(payload.details?.command).not.toMatch(WRAPPED);
      }
      if (payload.itemType === "mcp_tool_call") {
        expect(payload.details).toMatchObject({ server: expect.any(String), tool: expect.any(String) });
      }
    }
  });
});
