import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ServeProcess } from "../server/support/serve-process.js";
import {
  docsScreenshot,
  launchChromium,
  screenshot,
  type WatchedPage,
  watchedPage,
} from "./support/browser.js";
import { liveServeDirs, prompt, startSession, turnEnd } from "./support/live-page.js";
import { loginFragment } from "./support/login-url.js";

/** The inspector on a phone-sized screen (390 × 844): the open session first, the list in a drawer. */

const TOKEN = "inspector-narrow-token-0123456789";
const WIDTH = 390;
const HEIGHT = 844;
const dirs = liveServeDirs("inspector-narrow-", TOKEN);
let browser: Browser;
let server: ServeProcess;
let watched: WatchedPage;

/** The part of an element inside the first screen, in px of height (0: not on it). */
async function onFirstScreen(page: Page, selector: string): Promise<number> {
  const box = await page.locator(selector).boundingBox();
  if (box === null) return 0;
  return Math.max(0, Math.min(box.y + box.height, HEIGHT) - Math.max(box.y, 0));
}

const drawerToggle = (page: Page) => page.getByRole("button", { name: /^Sessions/ });

beforeAll(async () => {
  browser = await launchChromium();
  server = await dirs.serveMock();
  watched = await watchedPage(browser, { width: WIDTH, height: HEIGHT });
  await watched.page.goto(`${server.url}/${await loginFragment(server)}`);
});

afterAll(async () => {
  await watched?.context.close();
  await browser?.close();
  await server?.stop();
  dirs.remove();
});

it("at 390 px the open session's timeline and composer are on the first screen, the list a drawer", async () => {
  const { page } = watched;
  // nothing open yet: the list and the form are what the page shows
  await page.getByRole("form", { name: "New session" }).waitFor();
  const codex = await startSession(page, "codex", dirs.root);
  await expect(page.locator(".sidebar").isVisible()).resolves.toBe(false);
  await prompt(page, "mock:shell run a command");
  await page.locator(".session-dock .request-card").waitFor({ timeout: 60_000 });
  expect(await onFirstScreen(page, ".session-scroll")).toBeGreaterThan(150);
  expect(await onFirstScreen(page, '[data-item-type="command_execution"]')).toBeGreaterThan(0);
  const composer = await page.locator(".composer").boundingBox();
  expect(composer !== null && composer.y + composer.height <= HEIGHT).toBe(true);
  await expect(page.evaluate<number>("document.documentElement.scrollWidth")).resolves.toBeLessThanOrEqual(
    WIDTH,
  );
  await screenshot(page, "narrow-1-session-first", false);
  await docsScreenshot(page, "inspector-390");
  // the drawer: its toggle counts what waits, the inbox answers it in place
  await expect(drawerToggle(page).textContent()).resolves.toBe("Sessions1");
  await drawerToggle(page).click();
  const inbox = page.getByRole("region", { name: "Waiting on you" });
  await inbox.locator(`.inbox-session[data-session-id="${codex}"] .request-card`).waitFor();
  await expect(page.locator(".session-scroll").isVisible()).resolves.toBe(false);
  await screenshot(page, "narrow-2-drawer-inbox", false);
  await inbox.getByRole("button", { name: "Accept", exact: true }).click();
  await inbox.locator(".request-card").waitFor({ state: "detached", timeout: 60_000 });
  await expect(drawerToggle(page).textContent()).resolves.toBe("Sessions");
  await expect(page.evaluate<number>("document.documentElement.scrollWidth")).resolves.toBeLessThanOrEqual(
    WIDTH,
  );
  // a second session, then back to the first from the drawer: the drawer closes and the timeline is on screen
  await startSession(page, "claude", dirs.root);
  await drawerToggle(page).click();
  await page.locator(`.session-button[data-session-id="${codex}"]`).click();
  await expect(page.locator(".sidebar").isVisible()).resolves.toBe(false);
  await expect(turnEnd(page, 1)).resolves.toBe("completed");
  expect(await onFirstScreen(page, ".session-scroll")).toBeGreaterThan(150);
  const scroller = await page
    .locator(".session-scroll")
    .evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  expect(scroller).toBeLessThan(48);
  await screenshot(page, "narrow-3-back-to-first", false);
  expect(watched.errors).toEqual([]);
});
