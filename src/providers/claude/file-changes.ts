/**
 * `file_change` details of Claude Code's file tools (Edit, Write, MultiEdit, NotebookEdit): from the tool's input
 * once it is complete, then from the result object (`tool_use_result`) when it arrives.
 *
 * - Edit: kind `update`; before the result the diff is of the replaced text alone (`old_string` → `new_string`,
 *   so its line numbers count from the snippet, and with `replace_all` it shows one occurrence); the result's
 *   `structuredPatch` (hunks with the file's real line numbers) replaces it.
 * - Write: whether the file existed is known only from the result's `type` (`create` → `add`, `update` →
 *   `update`). Until then the change is reported as `update` with no diff: a Write replaces the path's content,
 *   which is what `update` says, while `add` would claim the file is new. The diff is the result's
 *   `structuredPatch`, or for a `create` with no hunks (Claude sends none for a new file) the content as added
 *   lines, or for an `update` with `originalFile` and no hunks the diff of the two texts.
 * - MultiEdit: one change of the file; the diff joins each edit's replaced-text diff, until `structuredPatch`.
 * - NotebookEdit: the notebook's path, kind `update` (a cell inserted or deleted still changes the notebook);
 *   the diff is the cell's, where the result gives both its old and new source (`old_source`, replace only).
 */
import { FILE_HEADERS_ONLY, formatPatch, type StructuredPatchHunk } from "diff";
import type { FileChange, FileChangeDetails } from "../../contracts/item-details.js";
import { arr, asObject, isObject, type JsonObject, num, str } from "../../kit/guards.js";
import { unifiedDiff } from "../../kit/unified-diff.js";

/** The change a file tool's complete input describes, or undefined when the input names no file. */
export function fileChangeFromInput(toolName: string, input: JsonObject): FileChangeDetails | undefined {
  const path = str(input.file_path) ?? str(input.notebook_path);
  if (path === undefined || path.length === 0) return undefined;
  const change: FileChange = { path, kind: "update" };
  let diff: string | undefined;
  if (toolName === "Edit") diff = replacedTextDiff(path, input);
  else if (toolName === "MultiEdit")
    diff = joinDiffs((arr(input.edits) ?? []).map((e) => replacedTextDiff(path, e)));
  if (diff !== undefined) change.diff = diff;
  return { changes: [change] };
}

/** The input's change corrected by the tool's result object, where that says more. */
export function fileChangeFromResult(
  toolName: string,
  fromInput: FileChangeDetails,
  toolUseResult: unknown,
): FileChangeDetails {
  const result = asObject(toolUseResult);
  const change = fromInput.changes[0];
  if (result === undefined || change === undefined) return fromInput;
  const { path } = change;
  const next: FileChange = { ...change };
  if (toolName === "Write") {
    if (result.type === "create") next.kind = "add";
    else if (result.type === "update") next.kind = "update";
  }
  const created = next.kind === "add";
  const diff =
    patchText(path, result.structuredPatch, created) ??
    (toolName === "Write" ? writeDiff(path, result, created) : undefined) ??
    (toolName === "NotebookEdit" ? cellDiff(path, result) : undefined);
  if (diff !== undefined) next.diff = diff;
  return { changes: [next] };
}

function replacedTextDiff(path: string, edit: unknown): string | undefined {
  if (!isObject(edit)) return undefined;
  const oldText = str(edit.old_string);
  const newText = str(edit.new_string);
  if (oldText === undefined || newText === undefined) return undefined;
  return unifiedDiff(path, oldText, newText);
}

function joinDiffs(diffs: (string | undefined)[]): string | undefined {
  const present = diffs.filter((d): d is string => d !== undefined);
  // A diff missing for one edit (too big to compute) would make the joined diff tell less than it seems to.
  return present.length === 0 || present.length !== diffs.length ? undefined : present.join("");
}

/** A `structuredPatch` (jsdiff hunks, as Claude Code sends them) as unified text; undefined when empty or odd. */
function patchText(path: string, native: unknown, created: boolean): string | undefined {
  const list = arr(native);
  if (list === undefined || list.length === 0) return undefined;
  const hunks: StructuredPatchHunk[] = [];
  for (const item of list) {
    const hunk = hunkOf(item);
    if (hunk === undefined) return undefined;
    hunks.push(hunk);
  }
  const name = path.startsWith("/") ? path.slice(1) : path;
  return formatPatch(
    {
      oldFileName: created ? "/dev/null" : `a/${name}`,
      newFileName: `b/${name}`,
      oldHeader: undefined,
      newHeader: undefined,
      hunks,
    },
    FILE_HEADERS_ONLY,
  );
}

function hunkOf(value: unknown): StructuredPatchHunk | undefined {
  if (!isObject(value)) return undefined;
  const oldStart = num(value.oldStart);
  const oldLines = num(value.oldLines);
  const newStart = num(value.newStart);
  const newLines = num(value.newLines);
  const lines = arr(value.lines);
  if (oldStart === undefined || oldLines === undefined || newStart === undefined || newLines === undefined)
    return undefined;
  if (lines === undefined || !lines.every((line) => typeof line === "string")) return undefined;
  return { oldStart, oldLines, newStart, newLines, lines: lines as string[] };
}

function writeDiff(path: string, result: JsonObject, created: boolean): string | undefined {
  const content = str(result.content);
  if (content === undefined) return undefined;
  if (created) return unifiedDiff(path, "", content);
  const original = str(result.originalFile);
  return original === undefined || original === content ? undefined : unifiedDiff(path, original, content);
}

function cellDiff(path: string, result: JsonObject): string | undefined {
  const oldSource = str(result.old_source);
  const newSource = str(result.new_source);
  if (oldSource === undefined || newSource === undefined || oldSource === newSource) return undefined;
  return unifiedDiff(path, oldSource, newSource);
}
