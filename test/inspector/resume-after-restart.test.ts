import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { verifyEvents } from "../../src/verify/index.js";
import type { ServeProcess } from "../server/support/serve-process.js";
import { launchChromium, screenshot, type WatchedPage, watchedPage } from "./support/browser.js";
import { liveServeDirs, prompt, startSession, turnEnd, turnRegion } from "./support/live-page.js";
import { loginFragment } from "./support/login-url.js";
import { TcpProxy } from "./support/tcp-proxy.js";

const TOKEN = "inspector-resume-token-0123456789";
const dirs = liveServeDirs("inspector-resume-", TOKEN);
const { root, serveMock } = dirs;

let browser: Browser;
let server: ServeProcess;
let proxy: TcpProxy;
let watched: WatchedPage;

beforeAll(async () => {
  browser = await launchChromium();
  server = await serveMock();
  proxy = await TcpProxy.start(server.port);
  watched = await watchedPage(browser);
  await watched.page.goto(`${proxy.url}/${await loginFragment(server)}`);
});

afterAll(async () => {
  await watched?.context.close();
  await browser?.close();
  await proxy?.close();
  await server?.stop();
  dirs.remove();
});

const idsIn = (scope: ReturnType<Page["locator"]>) =>
  scope
    .locator("[data-item-id]")
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-item-id") ?? ""));

/** The whole stored stream, page by page, straight from the server (not through the page). */
async function storedEvents(sessionId: string): Promise<RuntimeEvent[]> {
  const events: RuntimeEvent[] = [];
  for (let after = 0; ; ) {
    const response = await fetch(`${server.url}/v1/sessions/${sessionId}/events?after=${after}&limit=1000`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    const page = ((await response.json()) as { events: RuntimeEvent[] }).events;
    events.push(...page);
    const last = page.at(-1);
    if (last === undefined || page.length < 1000) return events;
    after = last.sequence;
  }
}

describe("the inspector: a session resumed after a server restart", () => {
  for (const provider of ["codex", "claude"]) {
    it(`${provider}: after SIGTERM and a restart on the same --data, a turn from the page is Turn 2, with its own items`, async () => {
      const { page, errors } = watched;
      const sessionId = await startSession(page, provider, root);
      await prompt(page, "mock:text the first turn");
      await expect(turnEnd(page, 1)).resolves.toBe("completed");
      const turn1 = await idsIn(turnRegion(page, 1));
      expect(turn1.length).toBeGreaterThan(0);
      const textsBefore = await page.locator(".message").allTextContents();

      await server.stop();
      await page.locator('[data-stream-status="retrying"]').waitFor({ timeout: 30_000 });
      server = await serveMock();
      proxy.retarget(server.port);
      await page.locator('[data-stream-status="live"]').waitFor({ timeout: 30_000 });
      await page.locator('[data-session-state="stopped"]').waitFor({ timeout: 30_000 });

      await prompt(page, "mock:text the second turn");
      await expect(turnEnd(page, 2)).resolves.toBe("completed");
      await expect(turnRegion(page, 3).count()).resolves.toBe(0);
      const turn2 = await idsIn(turnRegion(page, 2));
      expect(turn2.length).toBeGreaterThan(0);
      expect(turn2.filter((id) => turn1.includes(id))).toEqual([]);
      const all = await idsIn(page.locator(".session"));
      expect(new Set(all).size).toBe(all.length);
      const texts = await page.locator(".message").allTextContents();
      expect(texts.slice(0, textsBefore.length)).toEqual(textsBefore);
      // the mock answers both turns alike: once in each, never replayed
      const answer = "mock final answer: text";
      expect(textsBefore.filter((t) => t === answer)).toHaveLength(1);
      expect(texts.filter((t) => t === answer)).toHaveLength(2);
      const turn2Texts = await turnRegion(page, 2).locator(".message").allTextContents();
      expect(turn2Texts.filter((t) => t === answer)).toHaveLength(1);
      await screenshot(page, `resume-${provider}-turn-2`);

      const events = await storedEvents(sessionId);
      expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
      expect(events.filter((e) => e.type === "turn.started")).toHaveLength(2);
      expect(verifyEvents(events)).toEqual([]);
      expect(errors.filter((e) => !/Failed to load resource|net::ERR_/.test(e))).toEqual([]);
    }, 120_000);
  }
});
