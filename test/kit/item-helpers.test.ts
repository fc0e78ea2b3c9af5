import { createTwoFilesPatch } from "diff";
import { describe, expect, it } from "vitest";
import { splitMcpToolName } from "../../src/kit/mcp-tool-name.js";
import { unwrapShellCommand } from "../../src/kit/shell-command.js";
import { unifiedDiff, withFileHeader } from "../../src/kit/unified-diff.js";

/** jsdiff's own patch, as unifiedDiff wrote it before its whole-file fast path. */
function jsdiffPatch(path: string, oldText: string, newText: string): string {
  const from = oldText.length === 0 ? "/dev/null" : `a/${path}`;
  const to = newText.length === 0 ? "/dev/null" : `b/${path}`;
  const patch = createTwoFilesPatch(from, to, oldText, newText);
  return patch.slice(patch.indexOf("---"));
}

describe("unwrapShellCommand", () => {
  it("takes a login-shell wrapper off a string or an argv", () => {
    expect(unwrapShellCommand("/bin/bash -lc 'echo mock-shell-output'")).toEqual({
      command: "echo mock-shell-output",
      shell: "/bin/bash -lc",
    });
    expect(unwrapShellCommand(["/bin/zsh", "-lc", "ls -la"])).toEqual({
      command: "ls -la",
      shell: "/bin/zsh -lc",
    });
    expect(unwrapShellCommand(`bash -lc 'echo '\\''hi'\\'''`)).toEqual({
      command: "echo 'hi'",
      shell: "bash -lc",
    });
    expect(unwrapShellCommand("zsh -lc ls")).toEqual({ command: "ls", shell: "zsh -lc" });
    expect(unwrapShellCommand(`sh -c "echo \\"x\\" $HOME"`)).toEqual({
      command: 'echo "x" $HOME',
      shell: "sh -c",
    });
  });

  it("leaves what is not one wrapped, quoted script as it is", () => {
    expect(unwrapShellCommand("sh -c echo hi")).toEqual({ command: "sh -c echo hi" });
    expect(unwrapShellCommand("python -c 'print(1)'")).toEqual({ command: "python -c 'print(1)'" });
    expect(unwrapShellCommand("bash -lc 'unterminated")).toEqual({ command: "bash -lc 'unterminated" });
    expect(unwrapShellCommand(["git", "commit", "-m", "a b"])).toEqual({ command: "git commit -m 'a b'" });
  });
});

describe("unifiedDiff", () => {
  it("writes a unified diff from old and new text, /dev/null for an added file", () => {
    expect(unifiedDiff("/w/a.txt", "a\nb\n", "a\nc\n")).toBe(
      "--- a/w/a.txt\n+++ b/w/a.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
    );
    expect(unifiedDiff("n.txt", "", "x\n")?.startsWith("--- /dev/null\n+++ b/n.txt\n")).toBe(true);
  });

  it("puts the file header in front of bare hunks, the move's target as the new name", () => {
    expect(withFileHeader("@@ -1 +1 @@\n-a\n+b\n", "/w/old", "/w/new")).toBe(
      "--- a/w/old\n+++ b/w/new\n@@ -1 +1 @@\n-a\n+b\n",
    );
    expect(withFileHeader("--- a/x\n+++ b/x\n@@ -1 +1 @@\n", "other")).toBe(
      "--- a/x\n+++ b/x\n@@ -1 +1 @@\n",
    );
  });

  it("writes a whole added or deleted file exactly as jsdiff does", () => {
    for (const text of ["x\n", "a\nb\n", "no newline", "a\n\nb", "\n", "é\r\nz\n"]) {
      expect(unifiedDiff("f.txt", "", text)).toBe(jsdiffPatch("f.txt", "", text));
      expect(unifiedDiff("f.txt", text, "")).toBe(jsdiffPatch("f.txt", text, ""));
    }
  });

  it("gives up, rather than spend quadratic time, on texts that differ everywhere", () => {
    const lines = (prefix: string) => Array.from({ length: 5_000 }, (_, i) => `${prefix}${i}`).join("\n");
    expect(unifiedDiff("big.txt", lines("a"), lines("b"))).toBeUndefined();
  });
});

describe("splitMcpToolName", () => {
  it("splits mcp__<server>__<tool> at the server's end; other names are no MCP tool", () => {
    expect(splitMcpToolName("mcp__docs__lookup")).toEqual({ server: "docs", tool: "lookup" });
    expect(splitMcpToolName("mcp__gh__pull__list")).toEqual({ server: "gh", tool: "pull__list" });
    expect(splitMcpToolName("mcp__docs")).toBeUndefined();
    expect(splitMcpToolName("Bash")).toBeUndefined();
  });
});
