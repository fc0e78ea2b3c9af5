import { appendFile, cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { importedSessionId } from "../../src/history/import-file.js";
import { runImport } from "../../src/history/importer.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { verifyEvents } from "../../src/verify/index.js";
import {
  CLAUDE_CODE,
  fileLines,
  normalized,
  placeRollouts,
  REAL_CLAUDE_CODE_FILE,
  storedEvents,
  tempHome,
} from "./history-fixture.js";

const HOUR = 60 * 60 * 1000;

it("Claude Code projects import as normalize --from claude-code reads them, subagents' files included", async () => {
  const home = await tempHome();
  try {
    const projects = join(home.root, ".claude", "projects");
    const files = await placeRollouts(
      projects,
      {
        text: "-work-a/11111111-text.jsonl",
        "multi-turn": "-work-a/22222222-multi.jsonl",
        shell: "-work-b/33333333-shell.jsonl",
        subagent: "-work-b/subagent.jsonl",
        [REAL_CLAUDE_CODE_FILE]: "-home-marco-projects-spotter/d6e0bada.jsonl",
      },
      CLAUDE_CODE,
    );
    // the subagent's file sits where Claude Code 2.1 writes it: <project>/<session>/subagents/agent-*.jsonl
    await cp(join(CLAUDE_CODE, "subagent"), join(projects, "-work-b", "subagent"), { recursive: true });
    const store = await openSqliteStore({ dataDir: home.data, synchronous: "normal" });
    try {
      // settled (the files are not being written): each session's last turn is closed, as normalize does
      const env = { HOME: home.root };
      const first = await runImport(store, { env, settledAfterMs: 0 });
      expect(first).toMatchObject({ new: 5, grown: 0, skipped: 0, warnings: 0 });
      for (const file of files) {
        const events = await storedEvents(store, importedSessionId(file));
        expect(verifyEvents(events), file).toEqual([]);
        expect(
          events.map((e) => JSON.stringify(e)),
          file,
        ).toEqual(await normalized(file, file, "claude-code"));
        expect((await store.getSession(importedSessionId(file)))?.provider).toBe("claude-code");
      }
      const subagent = await storedEvents(store, importedSessionId(files[3] as string));
      expect(subagent.some((e) => e.parentItemId !== undefined)).toBe(true);
      expect(await runImport(store, { env, settledAfterMs: 0 })).toMatchObject({
        new: 0,
        unchanged: 5,
        events: 0,
      });
    } finally {
      await store.close();
    }
  } finally {
    await home.remove();
  }
});

it("a Claude Code session being written keeps its last turn open until it settles; written again after, a warning", async () => {
  const home = await tempHome();
  try {
    const [file] = await placeRollouts(home.root, { "multi-turn": "p/session.jsonl" }, CLAUDE_CODE);
    const path = file as string;
    const lines = await fileLines(path);
    const half = Math.floor(lines.length / 2);
    await writeFile(path, `${lines.slice(0, half).join("\n")}\n`);
    const full = join(home.root, "full.jsonl");
    await writeFile(full, `${lines.join("\n")}\n`);
    const expected = await normalized(full, path, "claude-code");
    const id = importedSessionId(path);
    const store = await openSqliteStore({ dataDir: home.data, synchronous: "normal" });
    try {
      const options = { paths: [path], from: "claude-code" as const };
      expect(await runImport(store, options)).toMatchObject({ new: 1 });
      await appendFile(path, `${lines.slice(half).join("\n")}\n`);
      expect(await runImport(store, options)).toMatchObject({ grown: 1 });
      const open = await storedEvents(store, id);
      // everything but the closing of the last turn (the file may still be written)
      expect(open.map((e) => JSON.stringify(e))).toEqual(expected.slice(0, open.length));
      expect(open.length).toBeLessThan(expected.length);
      expect(verifyEvents(open)).toEqual([]);

      // an hour later, nothing written: the session is taken as finished and its last turn closed
      const later = { ...options, now: () => Date.now() + 2 * HOUR };
      expect(await runImport(store, later)).toMatchObject({
        grown: 1,
        events: expected.length - open.length,
      });
      const closed = await storedEvents(store, id);
      expect(closed.map((e) => JSON.stringify(e))).toEqual(expected);
      expect((await store.getSession(id))?.importedFrom?.closed).toBe(true);
      expect(await runImport(store, later)).toMatchObject({ unchanged: 1, events: 0 });

      await appendFile(path, `${lines[lines.length - 1]}\n`);
      const warnings: string[] = [];
      expect(await runImport(store, later, { warning: (m) => warnings.push(m) })).toMatchObject({
        skipped: 1,
      });
      expect(warnings).toEqual([
        expect.stringContaining("written again after an import took it as finished"),
      ]);
      expect(await storedEvents(store, id)).toHaveLength(expected.length);
    } finally {
      await store.close();
    }
  } finally {
    await home.remove();
  }
});
