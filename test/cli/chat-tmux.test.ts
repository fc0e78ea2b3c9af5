import { afterAll, describe, expect, it } from "vitest";
import { removePrivateTmps } from "./support/cli-process.js";
import { TmuxPane } from "./support/tmux-pane.js";

/** `chat` in a real terminal (tmux), read off the screen: the real Claude Code, the mock model. */

const panes: TmuxPane[] = [];
afterAll(() => {
  for (const pane of panes) pane.kill();
  removePrivateTmps();
});

/** Lines where the prompt shares its line with anything but what was typed. */
function promptLinesWithOutput(screen: string, typed: string[]): string[] {
  return screen
    .split("\n")
    .filter((line) => line.includes("you> "))
    .filter((line) => {
      const after = line.slice(line.indexOf("you> ") + 5).trim();
      return line.indexOf("you> ") > 0 || (after.length > 0 && !typed.includes(after));
    });
}

/** A shell turn approved at the terminal, then /quit; the screen as it was before quitting. */
async function shellTurn(provider: string, args: string[] = []): Promise<string> {
  const pane = new TmuxPane(["chat", "--provider", provider, "--mock", ...args]);
  panes.push(pane);
  await pane.waitFor(/you> $/m);
  pane.type("mock:shell run a command");
  await pane.waitFor(/approve\? \[y\]es/);
  pane.type("y");
  await pane.waitFor(/mock final answer: shell[\s\S]*you> $/m);
  // the events that come after the turn's end (states, usage) have arrived: the prompt is still the last line
  const screen = await pane.waitFor(/ready[\s\S]*you> \s*$|turn completed[\s\S]*you> \s*$/);
  pane.type("/quit");
  await pane.waitFor(/\[exit 0\]/);
  return screen;
}

describe("chat in tmux", () => {
  it("Claude reads as a conversation: the command with its output, the answer; no protocol line", async () => {
    const screen = await shellTurn("claude");
    expect(screen).toMatch(/^\$ echo mock-shell-output \| tee \/dev\/null$/m);
    expect(screen).toMatch(/│ mock-shell-output/);
    expect(screen).toContain("mock final answer: shell (saw mock-shell-output)");
    expect(screen).toMatch(/── turn completed · [\d,]+ tokens/);
    expect(screen).not.toContain("provider.event");
    expect(screen).not.toMatch(/session\.state\.changed|content\.delta|\[ede_diagnostic\]/);
    expect(promptLinesWithOutput(screen, ["mock:shell run a command", "/quit"])).toEqual([]);
  });

  it("Codex: the command's exit code", async () => {
    const screen = await shellTurn("codex");
    expect(screen).toMatch(/^\$ echo mock-shell-output \| tee \/dev\/null$/m);
    expect(screen).toMatch(/│ mock-shell-output\n\s*exit code 0/);
    expect(screen).toContain("mock final answer: shell (saw mock-shell-output)");
    expect(screen).not.toContain("provider.event");
    expect(promptLinesWithOutput(screen, ["mock:shell run a command", "/quit"])).toEqual([]);
  });

  it("--verbose shows every event, the late ones above the prompt, never inside it", async () => {
    const screen = await shellTurn("claude", ["--verbose"]);
    expect(screen).toContain("provider.event");
    expect(screen).toMatch(/turn\.completed\s+completed/);
    expect(promptLinesWithOutput(screen, ["mock:shell run a command", "/quit"])).toEqual([]);
    expect(screen.trimEnd().split("\n").at(-1)).toBe("you>");
  });
});
