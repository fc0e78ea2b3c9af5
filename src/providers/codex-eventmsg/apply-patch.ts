import type { FileChange } from "../../contracts/item-details.js";
import { unifiedDiff } from "../../kit/unified-diff.js";

const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const END = "*** End Patch";

/**
 * The files an `apply_patch` input names (`*** Begin Patch` … `*** End Patch`), in the patch's order: each file
 * header gives a path and a kind, `*** Move to:` after an update makes it a move. An added file's body is its
 * whole content (every line `+`-prefixed), so its diff is exact; an update's hunks carry no line numbers, so an
 * update has no diff here (the patch_apply events, where present, bring Codex's own).
 */
export function applyPatchChanges(patch: string): FileChange[] {
  const changes: FileChange[] = [];
  let current: FileChange | undefined;
  let added: string[] | undefined;
  const flush = () => {
    if (current !== undefined && added !== undefined && added.length > 0) {
      const diff = unifiedDiff(current.path, "", `${added.join("\n")}\n`);
      if (diff !== undefined) current.diff = diff;
    }
    current = undefined;
    added = undefined;
  };
  for (const rawLine of patch.split("\n")) {
    const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    const marker = line.trim();
    if (added !== undefined && line.startsWith("+")) {
      added.push(line.slice(1));
      continue;
    }
    if (marker.startsWith(MOVE) && current?.kind === "update") {
      const movePath = marker.slice(MOVE.length).trim();
      if (movePath.length > 0) {
        current.kind = "move";
        current.movePath = movePath;
      }
      continue;
    }
    const header = fileHeader(marker);
    if (header !== undefined) {
      flush();
      if (header.path.length === 0) continue;
      current = header;
      changes.push(current);
      if (header.kind === "add") added = [];
      continue;
    }
    if (marker === END) flush();
  }
  flush();
  return changes;
}

function fileHeader(marker: string): FileChange | undefined {
  if (marker.startsWith(ADD)) return { path: marker.slice(ADD.length).trim(), kind: "add" };
  if (marker.startsWith(DELETE)) return { path: marker.slice(DELETE.length).trim(), kind: "delete" };
  if (marker.startsWith(UPDATE)) return { path: marker.slice(UPDATE.length).trim(), kind: "update" };
  return undefined;
}
