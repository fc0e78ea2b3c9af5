// `npm run bench:inspector -- --live` runs this too: the same ~10,000-event session stored in a SQLite store,
// served by the built `serve`, and opened in the live inspector: first paint, and the time until the page has
// received every event over SSE and rendered the last one.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import type { RuntimeEvent } from "../src/contracts/events.js";
import { openSqliteStore } from "../src/store/sqlite-store.js";
import { ServeProcess } from "../test/server/support/serve-process.js";

export interface LiveTrial {
  firstPaintMs: number;
  lastEventMs: number;
}

const TOKEN = "bench-inspector-token";

/** Stores the session under `dir`, starts `serve` on it, and opens the page `trials` times. */
export async function liveTrials(
  browser: Browser,
  events: readonly RuntimeEvent[],
  dir: string,
  trials: number,
): Promise<LiveTrial[]> {
  const data = join(dir, "data");
  const tmp = join(dir, "tmp");
  mkdirSync(tmp, { recursive: true });
  const sessionId = events[0]?.sessionId as string;
  const store = await openSqliteStore({ dataDir: data });
  const at = events[0]?.createdAt ?? new Date().toISOString();
  await store.createSession({
    id: sessionId,
    provider: events[0]?.provider ?? "codex",
    origin: "live",
    createdAt: at,
    updatedAt: at,
    state: "ready",
    lastSequence: 0,
    openRequests: 0,
    exited: false,
  });
  for (let i = 0; i < events.length; i += 500) await store.append(sessionId, events.slice(i, i + 500));
  await store.close();
  const server = await ServeProcess.start({ data, tmp, token: TOKEN, extra: ["--mock", "--root", dir] });
  try {
    const { url } = server;
    const out: LiveTrial[] = [];
    for (let trial = 0; trial < trials; trial++) {
      // bypassCSP: the page's policy forbids the string evaluation waitForFunction uses
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      // a one-time login code per trial (the page takes no token in its URL)
      const { code } = (await (await server.fetch("/v1/login-codes", { method: "POST" })).json()) as {
        code: string;
      };
      await page.goto(`${url}/#code=${code}&session=${encodeURIComponent(sessionId)}`);
      await page.waitForFunction(
        `Number(document.querySelector(".session")?.getAttribute("data-last-sequence")) >= ${events.length}`,
        undefined,
        { timeout: 120_000, polling: "raf" },
      );
      const lastEventMs = await page.evaluate<number>("performance.now()");
      const firstPaintMs = await page.evaluate<number>(
        `performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN`,
      );
      out.push({ firstPaintMs, lastEventMs });
      await context.close();
    }
    return out;
  } finally {
    await server.stop();
  }
}
