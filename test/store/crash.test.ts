import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { tempDataDir } from "./store-fixture.js";

it("SIGKILL of a process appending loses nothing its appends acknowledged", async () => {
  const data = await tempDataDir();
  try {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(import.meta.dirname, "append-until-killed.ts"), data.dir],
      // tsx keeps its cache in TMPDIR: the data dir's parent, removed with it
      { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, TMPDIR: dirname(data.dir) } },
    );
    const killIfAlive = () => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL");
    let acked = 0;
    let buffered = "";
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, signal) => resolve(signal)),
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${acked} events acknowledged in 40 s`)), 40_000);
      child.on("exit", () => clearTimeout(timer));
      child.stdout.on("data", (chunk: Buffer) => {
        buffered += chunk.toString("utf8");
        const complete = buffered.split("\n");
        buffered = complete.pop() ?? "";
        for (const line of complete) acked = Number(line.replace("acked ", ""));
        if (acked >= 2_000) {
          clearTimeout(timer);
          child.kill("SIGKILL");
          resolve();
        }
      });
      child.on("exit", () => resolve());
    }).finally(killIfAlive);
    expect(await exited).toBe("SIGKILL");
    expect(acked).toBeGreaterThanOrEqual(2_000);

    const store = await openSqliteStore({ dataDir: data.dir });
    try {
      const stored = [];
      for (let after = 0; ; ) {
        const page = await store.readEvents("ses_crash", after, 1_000);
        if (page.length === 0) break;
        stored.push(...page.map((event) => event.sequence));
        after = page[page.length - 1]?.sequence ?? after;
      }
      expect(stored.length).toBeGreaterThanOrEqual(acked);
      expect(stored).toEqual(Array.from({ length: stored.length }, (_, i) => i + 1));
      // the registry moved in the same transactions as the log
      expect((await store.getSession("ses_crash"))?.lastSequence).toBe(stored.length);
    } finally {
      await store.close();
    }
  } finally {
    await data.remove();
  }
});
