import { expect, it } from "vitest";
import type { SessionRecord } from "../../src/store/types.js";
import { deltaEvent, deltaEvents, lines, tempStore } from "./store-fixture.js";

const record = (id: string, updatedAt = "2026-12-01T00:00:00.000Z"): SessionRecord => ({
  id,
  provider: "codex",
  origin: "live",
  createdAt: "2026-12-01T00:00:00.000Z",
  updatedAt,
  state: "ready",
  lastSequence: 0,
  openRequests: 0,
  exited: false,
});

it("an event appended again (same sequence) is stored once, also inside one append and across reopen", async () => {
  const { store, dir, dispose } = await tempStore();
  try {
    await store.append("ses_a", deltaEvents("ses_a", 1, 3));
    await store.append("ses_a", [deltaEvent("ses_a", 2), deltaEvent("ses_a", 3), deltaEvent("ses_a", 4)]);
    await store.append("ses_a", [deltaEvent("ses_a", 5), deltaEvent("ses_a", 5)]);
    expect(lines(await store.readEvents("ses_a", 0, 100))).toEqual(lines(deltaEvents("ses_a", 1, 5)));
    await store.close();
    const { openSqliteStore } = await import("../../src/store/sqlite-store.js");
    const reopened = await openSqliteStore({ dataDir: dir });
    try {
      await reopened.append("ses_a", deltaEvents("ses_a", 1, 6));
      expect((await reopened.readEvents("ses_a", 0, 100)).map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    } finally {
      await reopened.close();
    }
  } finally {
    await dispose();
  }
});

it("a gap or a bad sequence is refused without failing the appends batched with it", async () => {
  const { store, dispose } = await tempStore();
  try {
    const results = await Promise.allSettled([
      store.append("ses_a", deltaEvents("ses_a", 1, 2)),
      store.append("ses_a", [deltaEvent("ses_a", 4)]),
      store.append("ses_b", [deltaEvent("ses_b", 0)]),
      store.append("ses_b", deltaEvents("ses_b", 1, 1)),
      store.append("ses_a", [deltaEvent("ses_a", 3)]),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "rejected",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain("sequence 4 after 2 leaves a gap");
    expect(String((results[2] as PromiseRejectedResult).reason)).toContain("not a positive integer");
    expect((await store.readEvents("ses_a", 0, 10)).map((e) => e.sequence)).toEqual([1, 2, 3]);
    expect((await store.readEvents("ses_b", 0, 10)).map((e) => e.sequence)).toEqual([1]);
  } finally {
    await dispose();
  }
});

it("appends arriving together share one transaction, and each resolves after it", async () => {
  const { store, dispose } = await tempStore();
  try {
    const before = store.commits;
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.append(`ses_${i}`, deltaEvents(`ses_${i}`, 1, 4))),
    );
    expect(store.commits - before).toBe(1);
    for (let i = 0; i < 50; i++) expect(await store.readEvents(`ses_${i}`, 0, 10)).toHaveLength(4);
  } finally {
    await dispose();
  }
});

it("readEvents pages by after and limit", async () => {
  const { store, dispose } = await tempStore();
  try {
    await store.append("ses_a", deltaEvents("ses_a", 1, 10));
    expect((await store.readEvents("ses_a", 3, 4)).map((e) => e.sequence)).toEqual([4, 5, 6, 7]);
    expect(await store.readEvents("ses_a", 10, 4)).toEqual([]);
    expect(await store.readEvents("ses_unknown", 0, 4)).toEqual([]);
  } finally {
    await dispose();
  }
});

it("the registry: create, patch, get, list by updatedAt desc; append moves lastSequence and updatedAt", async () => {
  const { store, dispose } = await tempStore();
  try {
    await store.createSession(record("ses_old", "2026-11-01T00:00:00.000Z"));
    await store.createSession({
      ...record("ses_new", "2026-11-20T00:00:00.000Z"),
      origin: "import",
      provider: "codex-rollout",
      cwd: "/w",
      agent: ["agent", "acp"],
      native: { resumeId: "thr_9", stateDir: "/d" },
      importedFrom: { path: "/h/r.jsonl", bytes: 10, mtimeMs: 5 },
    });
    await expect(store.createSession(record("ses_old"))).rejects.toThrow("already exists");
    expect((await store.listSessions()).map((s) => s.id)).toEqual(["ses_new", "ses_old"]);

    await store.append("ses_old", deltaEvents("ses_old", 1, 3)); // createdAt 2026-12-01
    const old = await store.getSession("ses_old");
    expect(old).toMatchObject({ lastSequence: 3, updatedAt: "2026-12-01T00:00:00.003Z" });
    expect((await store.listSessions()).map((s) => s.id)).toEqual(["ses_old", "ses_new"]);

    await store.updateSession("ses_new", {
      state: "stopped",
      exited: true,
      title: "fix it",
      openRequests: 2,
    });
    expect(await store.getSession("ses_new")).toEqual({
      id: "ses_new",
      provider: "codex-rollout",
      origin: "import",
      createdAt: "2026-12-01T00:00:00.000Z",
      updatedAt: "2026-11-20T00:00:00.000Z",
      cwd: "/w",
      agent: ["agent", "acp"],
      native: { resumeId: "thr_9", stateDir: "/d" },
      state: "stopped",
      lastSequence: 0,
      openRequests: 2,
      title: "fix it",
      exited: true,
      importedFrom: { path: "/h/r.jsonl", bytes: 10, mtimeMs: 5 },
    });
    await expect(store.updateSession("ses_none", { state: "ready" })).rejects.toThrow("unknown session");
    expect(await store.getSession("ses_none")).toBeUndefined();
  } finally {
    await dispose();
  }
});

it("a closed store refuses work", async () => {
  const { store, dispose } = await tempStore();
  const pending = store.append("ses_a", deltaEvents("ses_a", 1, 2));
  await store.close();
  await pending; // queued before close: flushed by it
  await expect(store.append("ses_a", deltaEvents("ses_a", 3, 1))).rejects.toThrow("closed");
  await dispose();
});

it("with more sessions than it caches, evicted sessions are read back: sequences and duplicates still right", async () => {
  const { store, dispose } = await tempStore({ cachedSessions: 4, synchronous: "normal" });
  try {
    for (let round = 0; round < 3; round++)
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.append(`ses_${i}`, deltaEvents(`ses_${i}`, 1 + round * 5, 5)),
        ),
      );
    // each session again from 10: 10..15 already stored, 16 new
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.append(`ses_${i}`, deltaEvents(`ses_${i}`, 10, 7))),
    );
    await expect(store.append("ses_3", [deltaEvent("ses_3", 18)])).rejects.toThrow("after 16 leaves a gap");
    for (let i = 0; i < 20; i++)
      expect(lines(await store.readEvents(`ses_${i}`, 0, 100))).toEqual(
        lines(deltaEvents(`ses_${i}`, 1, 16)),
      );
  } finally {
    await dispose();
  }
});
