import { createTwoFilesPatch } from "diff";

/** Past this many changed lines a diff is not computed: its cost grows with the product of the edits. */
const MAX_EDIT_LENGTH = 2_000;

/**
 * A unified diff of one file from its old and new text (empty old text: a new file; empty new: a deletion).
 * Undefined when the texts differ too much to diff cheaply; callers then leave `diff` absent.
 */
export function unifiedDiff(path: string, oldText: string, newText: string): string | undefined {
  const from = oldText.length === 0 ? "/dev/null" : `a/${stripSlash(path)}`;
  const to = newText.length === 0 ? "/dev/null" : `b/${stripSlash(path)}`;
  // A whole file added or deleted (most edits agents make) needs no diffing: one hunk of every line.
  if (oldText.length === 0 && newText.length > 0)
    return `--- ${from}\n+++ ${to}\n${wholeFileHunk("+", newText)}`;
  if (newText.length === 0 && oldText.length > 0)
    return `--- ${from}\n+++ ${to}\n${wholeFileHunk("-", oldText)}`;
  const patch = createTwoFilesPatch(from, to, oldText, newText, undefined, undefined, {
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (patch === undefined) return undefined;
  // The first line is the `Index:`-less `===` separator jsdiff writes; hosts expect a patch starting at `---`.
  return patch.slice(patch.indexOf("---"));
}

/**
 * Bare hunks (`@@ -1,2 +1,2 @@ …`, as Codex writes an update) as a unified diff a host can apply: the `---`/`+++`
 * file header put in front (`to` differs from `from` for a move). Text that already has a header is returned as is.
 */
export function withFileHeader(hunks: string, from: string, to: string = from): string {
  if (hunks.startsWith("--- ")) return hunks;
  return `--- a/${stripSlash(from)}\n+++ b/${stripSlash(to)}\n${hunks}`;
}

/** The one hunk of a file added (`+`) or deleted (`-`) whole, as jsdiff writes it. */
function wholeFileHunk(sign: "+" | "-", text: string): string {
  const lines = text.split("\n");
  const endsWithNewline = text.endsWith("\n");
  if (endsWithNewline) lines.pop();
  const range = `1,${lines.length}`;
  const header = sign === "+" ? `@@ -0,0 +${range} @@` : `@@ -${range} +0,0 @@`;
  const body = lines.map((line) => `${sign}${line}\n`).join("");
  return `${header}\n${body}${endsWithNewline ? "" : "\\ No newline at end of file\n"}`;
}

function stripSlash(path: string): string {
  return path.startsWith("/") ? path.slice(1) : path;
}
