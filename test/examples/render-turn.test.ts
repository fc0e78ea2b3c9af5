import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderSession } from "../../examples/render-turn.js";
import type { RuntimeEvent } from "../../src/contracts/index.js";

const FIXTURES = new URL("../fixtures/", import.meta.url);
const render = (path: string) =>
  renderSession(
    readFileSync(new URL(path, FIXTURES), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RuntimeEvent),
  );
/** The rendering without what a provider may not report (its exit code), and the prompt line that differs. */
const common = (rendering: string) =>
  rendering
    .split("\n")
    .filter((line) => !/^ {2}\(exit \d+\)$/.test(line) && !line.startsWith("> "))
    .join("\n");

describe("examples/render-turn.ts: one renderer from details alone, the same for every provider", () => {
  const shell = {
    "Codex app server": "codex/shell.expected.jsonl",
    "Codex SDK": "codex-sdk/shell.expected.jsonl",
    "Claude SDK": "claude/shell.expected.jsonl",
    "ACP claude-agent-acp": "acp/claude-agent-acp-shell-accepted.expected.jsonl",
  };

  it("renders the shell recordings alike: the command unwrapped, its output, the answer", () => {
    const renderings = Object.values(shell).map(render);
    const [first, ...rest] = renderings.map(common);
    expect(first).toBe(
      "# turn 1 (completed)\n$ echo mock-shell-output | tee /dev/null\n  mock-shell-output\nmock final answer: shell (saw mock-shell-output)",
    );
    for (const other of rest) expect(other).toBe(first);
    // the exit code is printed where the provider reports one: Codex does, Claude Code's Bash result does not
    expect(renderings.map((r) => r.includes("  (exit 0)"))).toEqual([true, true, false, false]);
  });

  it("renders the edit recordings alike: the added file and its diff where the provider gives one", () => {
    const edits = ["codex/edit", "claude/edit", "acp/claude-agent-acp-edit", "acp/codex-acp-edit"].map(
      (name) => common(render(`${name}.expected.jsonl`)),
    );
    expect(edits[0]).toBe(
      "# turn 1 (completed)\nadd mock-edit.txt\n+written by the mock model\nmock final answer: edit",
    );
    for (const other of edits.slice(1)) expect(other).toBe(edits[0]);
    // exec's file change names the file and its kind but carries no diff
    expect(common(render("codex-sdk/edit.expected.jsonl"))).toBe(
      "# turn 1 (completed)\nadd mock-edit.txt\nmock final answer: edit",
    );
  });
});
