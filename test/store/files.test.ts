import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { loadSqlite } from "../../src/store/sqlite-module.js";
import { deltaEvents, tempStore } from "./store-fixture.js";

it("the data dir is 0700, store.db and its WAL files 0600, in WAL mode", async () => {
  const { store, dir, dispose } = await tempStore();
  try {
    await store.append("ses_a", deltaEvents("ses_a", 1, 2));
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const names = (await readdir(dir)).sort();
    expect(names).toEqual(["store.db", "store.db-shm", "store.db-wal"]);
    for (const name of names) expect((await stat(join(dir, name))).mode & 0o777, name).toBe(0o600);
  } finally {
    await dispose();
  }
});

it("a missing better-sqlite3 is an error that names the package and version to install", async () => {
  const missing = Object.assign(new Error("Cannot find package 'better-sqlite3'"), {
    code: "ERR_MODULE_NOT_FOUND",
  });
  await expect(loadSqlite(() => Promise.reject(missing))).rejects.toThrow("npm install better-sqlite3@12");
});

it("the WAL is copied into store.db by the background thread, not by a commit, and started over past its limit", async () => {
  const { store, dir, dispose } = await tempStore({ checkpointEveryMs: 20, walRestartFrames: 256 });
  try {
    const walBytes = () => stat(join(dir, "store.db-wal")).then((s) => s.size);
    const dbBytes = () => stat(join(dir, "store.db")).then((s) => s.size);
    const before = await dbBytes();
    // ~16 MB of events in 400 commits, a commit every few ms: past SQLite's automatic checkpoint (1,000 pages) many
    // times over, and too often for a PASSIVE checkpoint alone ever to let the WAL start over
    const padding = "x".repeat(40_000);
    for (let batch = 0; batch < 400; batch++) {
      const [event] = deltaEvents("ses_a", batch + 1, 1);
      const padded = { ...event, raw: { ...(event?.raw as object), padding: `${batch}${padding}` } };
      await store.append("ses_a", [padded as unknown as RuntimeEvent]);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    // the writer's connection never checkpoints (wal_autocheckpoint = 0); the thread does, so the events reach
    // store.db while the store is open, and the WAL (a file that keeps its largest size) stays within a few MB of
    // its limit of 256 pages (1 MiB; the thread may be late on a loaded machine) instead of growing to 16 MB
    await expect.poll(dbBytes, { timeout: 5_000 }).toBeGreaterThan(before + 15_000_000);
    expect(await walBytes()).toBeLessThan(8_000_000);
    expect((await store.readEvents("ses_a", 0, 1_000)).map((event) => event.sequence)).toEqual(
      Array.from({ length: 400 }, (_, index) => index + 1),
    );
  } finally {
    await dispose();
  }
});
