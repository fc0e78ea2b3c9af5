import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
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
