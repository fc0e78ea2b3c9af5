import { copyFile, mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { main } from "../../src/cli/main.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { importedSessionId } from "../../src/history/import-file.js";
import type { SessionStore } from "../../src/store/types.js";
import { memoryIo } from "../support/memory-io.js";

export const ROLLOUTS = join(import.meta.dirname, "..", "fixtures", "codex-rollout");
export const CLAUDE_CODE = join(import.meta.dirname, "..", "fixtures", "claude-code");
export const REAL_CLAUDE_CODE_FILE = "/work/shared/fixtures/real/claude-code-session-2.1.38-spotter.jsonl";

/** A temp dir holding a history tree and a data dir; `remove()` deletes it. */
export async function tempHome(): Promise<{ root: string; data: string; remove: () => Promise<void> }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "provider-runtime-history-")));
  return { root, data: join(root, "data"), remove: () => rm(root, { recursive: true, force: true }) };
}

/** Copies recorded rollouts into `root` at the given relative paths (`fixture` → `relative path`). */
export async function placeRollouts(
  root: string,
  files: Record<string, string>,
  from = ROLLOUTS,
): Promise<string[]> {
  const placed: string[] = [];
  for (const [fixture, relative] of Object.entries(files)) {
    const target = join(root, relative);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(fixture.startsWith("/") ? fixture : join(from, `${fixture}.jsonl`), target);
    placed.push(target);
  }
  return placed;
}

/** What `normalize --from SOURCE` gives for the file, with the id `import` uses for it (or for `idOf`). */
export async function normalized(file: string, idOf = file, source = "codex-rollout"): Promise<string[]> {
  const io = memoryIo();
  const id = importedSessionId(await realpath(idOf));
  const code = await main(["normalize", "--from", source, "--session-id", id, file], io);
  if (code !== 0) throw new Error(`normalize exited ${code}: ${io.err()}`);
  // re-serialized: normalize copies a raw record's source text (a hand-written file's spaces included), the store
  // keeps the parsed record
  return io
    .out()
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.stringify(JSON.parse(line)));
}

/** Every stored event of a session, paged. */
export async function storedEvents(store: SessionStore, sessionId: string): Promise<RuntimeEvent[]> {
  const out: RuntimeEvent[] = [];
  for (;;) {
    const page = await store.readEvents(sessionId, out.at(-1)?.sequence ?? 0, 1_000);
    if (page.length === 0) return out;
    out.push(...page);
  }
}

export async function fileLines(file: string): Promise<string[]> {
  return (await readFile(file, "utf8")).split("\n").filter((line) => line.length > 0);
}
