import { appendFile, mkdir, readFile, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { importedSessionId } from "../../src/history/import-file.js";
import { runImport } from "../../src/history/importer.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { verifyEvents } from "../../src/verify/index.js";
import { fileLines, normalized, placeRollouts, storedEvents, tempHome } from "./history-fixture.js";

it("a tree of several projects imports every session once, as normalize maps it; a second run imports nothing", async () => {
  const home = await tempHome();
  try {
    const files = await placeRollouts(join(home.root, "codex", "sessions"), {
      text: "2026/11/30/rollout-2026-11-30T08-49-15-a.jsonl",
      "multi-turn": "2026/11/30/rollout-2026-11-30T08-49-23-b.jsonl",
      shell: "2026/12/01/rollout-2026-12-01T01-00-00-c.jsonl",
      edit: "2026/12/01/rollout-2026-12-01T02-00-00-d.jsonl",
      "hand-written-legacy-0.40-shape": "2026/01/02/rollout-2026-01-02T00-00-01-e.jsonl",
    });
    const store = await openSqliteStore({ dataDir: home.data, synchronous: "normal" });
    try {
      const first = await runImport(store, {
        env: { HOME: home.root, CODEX_HOME: join(home.root, "codex") },
      });
      expect(first).toMatchObject({ new: 5, grown: 0, unchanged: 0, skipped: 0, warnings: 0 });
      const sessions = await store.listSessions();
      expect(sessions).toHaveLength(5);
      let total = 0;
      for (const file of files) {
        const id = importedSessionId(await realpath(file));
        const record = sessions.find((s) => s.id === id);
        expect(record, file).toMatchObject({ provider: "codex-rollout", origin: "import" });
        expect(record?.importedFrom).toEqual({
          path: file,
          bytes: (await readFile(file)).length,
          mtimeMs: expect.any(Number),
        });
        const events = await storedEvents(store, id);
        expect(verifyEvents(events), file).toEqual([]);
        // normalize's own mapping; import leaves out only what finish() adds at the end of input (closing the
        // legacy format's synthesized last turn), since a file being written has not ended
        const expected = await normalized(file);
        expect(
          events.map((e) => JSON.stringify(e)),
          file,
        ).toEqual(expected.slice(0, events.length));
        const finishTypes = expected
          .slice(events.length)
          .map((line) => (JSON.parse(line) as RuntimeEvent).type);
        expect(finishTypes, file).toEqual(
          file.endsWith("-e.jsonl")
            ? ["turn.completed", "session.state.changed", "thread.state.changed"]
            : [],
        );
        expect(record?.lastSequence).toBe(events.length);
        total += events.length;
      }
      expect(first.events).toBe(total);
      const multi = sessions.find((s) => s.id === importedSessionId(files[1] as string));
      expect(multi?.title).toBe("mock:text first turn");
      expect(multi?.cwd).toMatch(/^\/tmp\/codex-rollout-cwd-/);

      const second = await runImport(store, {
        env: { HOME: home.root, CODEX_HOME: join(home.root, "codex") },
      });
      expect(second).toMatchObject({ new: 0, grown: 0, unchanged: 5, skipped: 0, events: 0, warnings: 0 });
      // touched but not grown: read again, nothing new
      const touched = files[0] as string;
      await appendFile(touched, "");
      const { utimes } = await import("node:fs/promises");
      await utimes(touched, new Date(), new Date(Date.now() + 5_000));
      expect(await runImport(store, { paths: [touched] })).toMatchObject({ unchanged: 1, events: 0 });
    } finally {
      await store.close();
    }
  } finally {
    await home.remove();
  }
});

it("a grown file adds only its new events; a last line still being written waits for its line break", async () => {
  const home = await tempHome();
  try {
    const [file] = await placeRollouts(home.root, { "multi-turn": "s/rollout-grow.jsonl" });
    const path = file as string;
    const lines = await fileLines(path);
    const half = Math.floor(lines.length / 2);
    const rest = lines.slice(half);
    const partial = (rest[0] as string).slice(0, 40);
    await writeFile(path, `${lines.slice(0, half).join("\n")}\n${partial}`);
    const expectedFull = await (async () => {
      const copy = join(home.root, "full.jsonl");
      await writeFile(copy, `${lines.join("\n")}\n`);
      return normalized(copy, path);
    })();

    const store = await openSqliteStore({ dataDir: home.data, synchronous: "normal" });
    try {
      const id = importedSessionId(path);
      const results: unknown[] = [];
      const first = await runImport(store, { paths: [path] }, { fileDone: (r) => results.push(r) });
      expect(first).toMatchObject({ new: 1, warnings: 0 });
      expect(results[0]).toMatchObject({ status: "new", pendingBytes: 40 });
      const early = await storedEvents(store, id);
      expect(early.length).toBeGreaterThan(5);
      expect(early.length).toBeLessThan(expectedFull.length);
      // the part imported is the start of the whole file's mapping
      expect(early.map((e) => JSON.stringify(e))).toEqual(expectedFull.slice(0, early.length));
      expect((await store.getSession(id))?.importedFrom?.bytes).toBe(
        Buffer.byteLength(`${lines.slice(0, half).join("\n")}\n`),
      );

      // the writer finishes the line and goes on
      await appendFile(path, `${(rest[0] as string).slice(40)}\n${rest.slice(1).join("\n")}\n`);
      const grown = await runImport(store, { paths: [path] });
      expect(grown).toMatchObject({ new: 0, grown: 1, events: expectedFull.length - early.length });
      const all = await storedEvents(store, id);
      expect(all.map((e) => JSON.stringify(e))).toEqual(expectedFull);
      expect(verifyEvents(all)).toEqual([]);
      expect(await runImport(store, { paths: [path] })).toMatchObject({ unchanged: 1, events: 0 });
    } finally {
      await store.close();
    }
  } finally {
    await home.remove();
  }
});

it("bad inputs are a warning each and the import goes on", async () => {
  const home = await tempHome();
  try {
    const [good, edited] = await placeRollouts(home.root, {
      text: "p/rollout-good.jsonl",
      shell: "p/rollout-edited.jsonl",
    });
    await writeFile(join(home.root, "p", "rollout-other.jsonl"), '{"jsonrpc":"2.0","method":"initialize"}\n');
    await writeFile(join(home.root, "p", "rollout-empty.jsonl"), "");
    // links are not followed, each one a warning: to a session file, to a directory; a link to nothing else is
    // no session file (no warning)
    await symlink(good as string, join(home.root, "p", "rollout-linked.jsonl"));
    await mkdir(join(home.root, "elsewhere"));
    await symlink(join(home.root, "elsewhere"), join(home.root, "p", "linked-dir"));
    await symlink(good as string, join(home.root, "p", "notes.txt"));
    const store = await openSqliteStore({ dataDir: home.data, synchronous: "normal" });
    const warnings: string[] = [];
    try {
      const first = await runImport(
        store,
        { paths: [join(home.root, "p"), join(home.root, "missing")], from: "codex-rollout" },
        { warning: (message) => warnings.push(message) },
      );
      expect(first).toMatchObject({ new: 2, skipped: 2, warnings: 4 });
      expect(warnings.sort()).toEqual([
        expect.stringMatching(/rollout-other\.jsonl is not a codex-rollout session file/),
        expect.stringContaining("missing: ENOENT"),
        expect.stringMatching(/skipped .*\/p\/linked-dir: a symbolic link/),
        expect.stringMatching(/skipped .*\/p\/rollout-linked\.jsonl: a symbolic link/),
      ]);

      // a file rewritten shorter, and one whose imported part now maps differently: kept as stored, one warning each
      const goodId = importedSessionId(good as string);
      const before = await storedEvents(store, goodId);
      await writeFile(good as string, "");
      const editedLines = await fileLines(edited as string);
      const changed = editedLines.map((line, i) =>
        i === editedLines.length - 1
          ? line.replace(/"timestamp":"[^"]*"/, '"timestamp":"2027-01-01T00:00:00.000Z"')
          : line,
      );
      await writeFile(edited as string, `${changed.join("\n")}\n${editedLines[editedLines.length - 1]}\n`);
      warnings.length = 0;
      const second = await runImport(
        store,
        { paths: [good as string, edited as string] },
        { warning: (m) => warnings.push(m) },
      );
      expect(second).toMatchObject({ skipped: 2, events: 0, warnings: 2 });
      expect(warnings[0]).toContain("shorter than when it was imported");
      expect(warnings[1]).toContain("does not give the events stored from it before");
      expect(await storedEvents(store, goodId)).toEqual(before);
    } finally {
      await store.close();
    }
  } finally {
    await home.remove();
  }
});
