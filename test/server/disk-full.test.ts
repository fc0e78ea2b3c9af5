import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, rmSync, symlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { verifyEvents } from "../../src/verify/index.js";
import { privateTmp } from "../cli/support/cli-process.js";
import { until } from "../support/until.js";
import { ServeProcess } from "./support/serve-process.js";
import { SseReader } from "./support/sse-reader.js";

/** A small tmpfs of our own, where this machine lets us mount one (root in a container that allows it). */
function mountTmpfs(dir: string, size: string): boolean {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const mounts: string[] = [];
afterEach(() => ServeProcess.stopAll());
afterAll(() => {
  for (const dir of mounts) execFileSync("umount", [dir]);
  ServeProcess.removeDirs();
});

/** Waits for `condition`; fails naming `what` (and what `describe` says of the state) after 60 s. */
async function waitFor(what: string, condition: () => Promise<boolean>, describe = () => ""): Promise<void> {
  if (!(await until(condition, 60_000, 200))) throw new Error(`${what}: not within 60 s ${describe()}`);
}

/** Writes zeros into `file` until the file system is full. */
function fillUp(file: string): void {
  const fd = openSync(file, "w");
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
}

const tmp = privateTmp();
const data = join(tmp, "data");
// the store alone on the small file system (SQLite puts its WAL next to the link's target); the agent's own
// state stays on the ordinary disk, so that what fills up is the store's, not the agent's
const storeFs = join(tmp, "store-fs");
const canMount = mountTmpfs(storeFs, "24m");
if (canMount) {
  mounts.push(storeFs);
  mkdirSync(data, { recursive: true });
  symlinkSync(join(storeFs, "store.db"), join(data, "store.db"));
}

describe.runIf(canMount)(
  "serve with its store on a full disk (a 24 MB tmpfs, real codex, mock model)",
  () => {
    it("the stream ends with runtime.error transport_error once space returns; health says ok: false meanwhile", async () => {
      const server = await ServeProcess.start({ token: "t", data, tmp, extra: ["--mock"] });
      const created = await server.json<{ id: string }>("/v1/sessions", {
        method: "POST",
        json: { provider: "codex" },
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const sse = new SseReader(`${server.url}/v1/sessions/${id}/events`, { authorization: "Bearer t" });
      await sse.until((r) => r.events().some((e) => e.type === "session.started"));
      const health = async () => (await server.json<{ ok: boolean }>("/v1/health")).body.ok;
      expect(await health()).toBe(true);

      const turn = await server.fetch(`/v1/sessions/${id}/turns`, {
        method: "POST",
        json: { text: "mock:long go" },
      });
      expect(turn.status).toBe(202);
      await sse.until((r) => r.events().some((e) => e.type === "content.delta"));
      const filler = join(storeFs, "filler");
      fillUp(filler);
      await waitFor(
        "health down",
        async () => !(await health()),
        () => JSON.stringify(sse.events().map((e) => e.type)),
      );
      expect(sse.events().some((e) => e.type === "session.exited")).toBe(false);

      rmSync(filler);
      await sse.until((r) => r.events().some((e) => e.type === "session.exited"), 60_000);
      const events: RuntimeEvent[] = sse.events();
      const error = events.find((e) => e.type === "runtime.error");
      expect(error?.payload).toMatchObject({ class: "transport_error" });
      expect((error?.payload as { message?: string } | undefined)?.message).toMatch(
        /the store could not write/,
      );
      expect(verifyEvents(events)).toEqual([]);
      await waitFor("health up", health);
      // and the session goes on: a new turn resumes the agent
      const next = await server.fetch(`/v1/sessions/${id}/turns`, {
        method: "POST",
        json: { text: "hello again" },
      });
      expect(next.status, await next.clone().text()).toBe(202);
      sse.close();
    }, 180_000);
  },
);
