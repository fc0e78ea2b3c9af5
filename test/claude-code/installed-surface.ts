/**
 * The session-file kinds of the installed Claude Code, read off its binary (the SDK's bundled native build): the
 * transcript loader's table of record types (`{user:"transcript",assistant:"transcript",…}`), every
 * `type:"system",subtype:"…"` literal, and every progress record's `data:{type:"…"}`. The binary is scanned
 * in chunks, so memory stays small; a literal cut by a chunk boundary is found in the overlap.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
export const BUNDLED_CLAUDE = join(
  dirname(require.resolve("@anthropic-ai/claude-agent-sdk")),
  "..",
  "claude-agent-sdk-linux-x64",
  "claude",
);

const CHUNK = 8 << 20;
const OVERLAP = 8192;
const LOADER_TABLE = /\{user:"transcript",assistant:"transcript",[^}]*\}/g;
const SYSTEM_SUBTYPE = /type:"system",subtype:"([a-z_]+)"/g;
const PROGRESS_TYPE = /progress",data:\{type:"([a-z_]+)"|data:\{type:"([a-z_]+_progress)"/g;

export interface InstalledSessionKinds {
  recordTypes: string[];
  systemSubtypes: string[];
  progressTypes: string[];
}

export function installedSessionKinds(binary = BUNDLED_CLAUDE): InstalledSessionKinds {
  const recordTypes = new Set<string>();
  const systemSubtypes = new Set<string>();
  const progressTypes = new Set<string>();
  const fd = openSync(binary, "r");
  try {
    const size = fstatSync(fd).size;
    const chunk = Buffer.alloc(CHUNK + OVERLAP);
    for (let position = 0; position < size; position += CHUNK) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      const text = chunk.toString("latin1", 0, read);
      for (const table of text.matchAll(LOADER_TABLE))
        for (const key of table[0].matchAll(/(?:"([a-z-]+)"|([a-z]+)):"/g))
          recordTypes.add(key[1] ?? key[2] ?? "");
      for (const match of text.matchAll(SYSTEM_SUBTYPE)) systemSubtypes.add(match[1] ?? "");
      for (const match of text.matchAll(PROGRESS_TYPE)) progressTypes.add(match[1] ?? match[2] ?? "");
    }
  } finally {
    closeSync(fd);
  }
  return {
    recordTypes: [...recordTypes].sort(),
    systemSubtypes: [...systemSubtypes].sort(),
    progressTypes: [...progressTypes].sort(),
  };
}
