import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServeProcess } from "../server/support/serve-process.js";
import {
  docsScreenshot,
  launchChromium,
  screenshot,
  type WatchedPage,
  watchedPage,
} from "./support/browser.js";
import { lowContrastTexts } from "./support/contrast.js";
import { liveServeDirs, prompt, startSession, turnEnd } from "./support/live-page.js";
import { loginFragment } from "./support/login-url.js";

/** The inspector as a daily tool at 1440 px: the pane that scrolls on its own, the live list, the inbox. */

const TOKEN = "inspector-daily-token-0123456789";
const dirs = liveServeDirs("inspector-daily-", TOKEN);
let browser: Browser;
let server: ServeProcess;
let watched: WatchedPage;

/** Where the timeline's scroller stands: how far from its bottom, and whether it can scroll at all. */
function scrollerState(page: Page) {
  return page.locator(".session-scroll").evaluate((el) => ({
    fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight,
    scrollTop: el.scrollTop,
    overflows: el.scrollHeight > el.clientHeight + 100,
  }));
}

/** True when the element's box lies inside the window. */
async function inViewport(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  const size = page.viewportSize();
  return (
    box !== null &&
    size !== null &&
    box.y >= 0 &&
    box.x >= 0 &&
    box.y + box.height <= size.height &&
    box.x + box.width <= size.width
  );
}

/** The bottom of the last message lies inside the scroller's visible part. */
function lastMessageVisible(page: Page): Promise<boolean> {
  return page.locator(".session-scroll").evaluate((el) => {
    const messages = el.querySelectorAll(".message");
    const last = messages[messages.length - 1];
    if (last === undefined) return false;
    const box = last.getBoundingClientRect();
    const view = el.getBoundingClientRect();
    return box.bottom <= view.bottom + 1 && box.bottom >= view.top;
  });
}

beforeAll(async () => {
  browser = await launchChromium();
  server = await dirs.serveMock();
  watched = await watchedPage(browser, { width: 1440, height: 900 });
  await watched.page.goto(`${server.url}/${await loginFragment(server)}`);
});

afterAll(async () => {
  await watched?.context.close();
  await browser?.close();
  await server?.stop();
  dirs.remove();
});

describe("the inspector at 1440 px", () => {
  it("a long streaming Claude turn: the composer and Interrupt stay in view, the view follows the output, tokens and cost show", async () => {
    const { page } = watched;
    await startSession(page, "claude", dirs.root);
    await prompt(page, "mock:long write a lot");
    // while the turn streams
    await page.locator('[data-turn-state="running"] .message').first().waitFor({ timeout: 60_000 });
    await expect(inViewport(page, ".composer")).resolves.toBe(true);
    await expect(inViewport(page, 'button:text-is("Interrupt")')).resolves.toBe(true);
    await expect(page.getByRole("button", { name: "Interrupt", exact: true }).isEnabled()).resolves.toBe(
      true,
    );
    await expect(turnEnd(page, 1)).resolves.toBe("completed");
    const after = await scrollerState(page);
    expect(after.overflows).toBe(true);
    expect(after.fromBottom).toBeLessThan(48);
    await expect(lastMessageVisible(page)).resolves.toBe(true);
    await expect(inViewport(page, ".composer")).resolves.toBe(true);
    await expect(page.evaluate<number>("window.scrollY")).resolves.toBe(0);
    const tokens = Number(await page.locator("[data-total-tokens]").getAttribute("data-total-tokens"));
    expect(tokens).toBeGreaterThan(0);
    expect(Number(await page.locator("[data-total-cost]").getAttribute("data-total-cost"))).toBeGreaterThan(
      0,
    );
    await screenshot(page, "daily-1-long-turn-followed", false);
  });

  it("scrolled up, new output does not move the view: 'Jump to latest' appears and brings it back", async () => {
    const { page } = watched;
    const id = await page.locator(".session").getAttribute("data-session-id");
    await prompt(page, "mock:shell run a command");
    const card = page.locator(".session-dock .request-card");
    await card.waitFor({ timeout: 60_000 });
    // the list's state is the session's own, pushed: waiting while the approval is open
    await page.locator(`.session-button[data-session-id="${id}"][data-state="waiting"]`).waitFor();
    await page.locator('[data-session-state="waiting"]').waitFor();
    await page.locator(".session-scroll").hover();
    await page.mouse.wheel(0, -100_000);
    await expect.poll(async () => (await scrollerState(page)).scrollTop).toBe(0);
    await card.getByRole("button", { name: "Accept", exact: true }).click();
    await expect(turnEnd(page, 2)).resolves.toBe("completed");
    const jump = page.getByRole("button", { name: /Jump to latest/ });
    await jump.waitFor();
    expect((await scrollerState(page)).scrollTop).toBe(0);
    await screenshot(page, "daily-2-scrolled-up-jump", false);
    await jump.click();
    await jump.waitFor({ state: "detached" });
    expect((await scrollerState(page)).fromBottom).toBeLessThan(48);
    await page.locator(`.session-button[data-session-id="${id}"][data-state="ready"]`).waitFor();
  });

  it("an approval from each of two sessions is answered from the inbox; the tab title counts them", async () => {
    const { page } = watched;
    const codex = await startSession(page, "codex", dirs.root);
    await prompt(page, "mock:shell run a command");
    await page.locator(".session-dock .request-card").waitFor({ timeout: 60_000 });
    const claude = await startSession(page, "claude", dirs.root);
    await prompt(page, "mock:shell run a command");
    const inbox = page.getByRole("region", { name: "Waiting on you" });
    for (const id of [codex, claude]) {
      await inbox
        .locator(`.inbox-session[data-session-id="${id}"] .request-card`)
        .waitFor({ timeout: 60_000 });
    }
    await expect.poll(() => page.title()).toMatch(/^\(2\) /);
    await screenshot(page, "daily-3-inbox-two-sessions", false);
    await docsScreenshot(page, "inspector");
    await expect(lowContrastTexts(page)).resolves.toEqual([]);
    for (const id of [codex, claude]) {
      const entry = inbox.locator(`.inbox-session[data-session-id="${id}"]`);
      await entry.getByRole("button", { name: "Accept", exact: true }).click();
      await entry.waitFor({ state: "detached", timeout: 60_000 });
    }
    await expect.poll(() => page.title()).toBe("provider-runtime inspector");
    await expect(turnEnd(page, 1)).resolves.toBe("completed");
    await page.locator(`.session-button[data-session-id="${codex}"]`).click();
    await expect(turnEnd(page, 1)).resolves.toBe("completed");
    await expect(inbox.locator(".request-card").count()).resolves.toBe(0);
  });

  it("every session shows its dates; the search box narrows the list", async () => {
    const { page } = watched;
    const buttons = page.locator(".session-button");
    const count = await buttons.count();
    expect(count).toBe(3);
    for (let i = 0; i < count; i++) {
      await expect(buttons.nth(i).locator("time[datetime]").count()).resolves.toBe(2);
    }
    await page.getByLabel("Search sessions").fill("codex");
    await expect.poll(() => buttons.count()).toBe(1);
    await expect(buttons.first().locator("strong").textContent()).resolves.toBe("codex");
    await page.getByLabel("Search sessions").fill("write a lot");
    await expect.poll(() => buttons.count()).toBe(1);
    await expect(buttons.first().locator(".session-title").textContent()).resolves.toBe(
      "mock:long write a lot",
    );
    await page.getByLabel("Search sessions").fill("");
    await expect.poll(() => buttons.count()).toBe(3);
    // the lowest entry of a scrolled list: its session opens at the top of the window, the page unscrolled
    const last = buttons.last();
    const id = await last.getAttribute("data-session-id");
    await page.locator(".sidebar").evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await last.click();
    await page.locator(`.session[data-session-id="${id}"]`).waitFor();
    const pane = await page.locator(".session-scroll").boundingBox();
    expect(pane !== null && pane.y < 100).toBe(true);
    await expect(page.evaluate<number>("window.scrollY")).resolves.toBe(0);
    await expect(inViewport(page, ".composer")).resolves.toBe(true);
  });

  it("an item's raw view shows its native records; choosing acp asks for the agent command", async () => {
    const { page } = watched;
    await page.locator(".session-button", { has: page.locator("strong", { hasText: "codex" }) }).click();
    await page.locator('.session[data-last-sequence] [data-item-type="command_execution"]').first().waitFor();
    const command = page.locator('[data-item-type="command_execution"]').first();
    await command.locator(".raw-events > summary").click();
    const record = command.locator(".raw-record").first();
    await record.waitFor();
    await expect(record.textContent()).resolves.toMatch(/"method": "item\/started"|commandExecution/);
    await expect(command.locator(".raw-event h4").first().textContent()).resolves.toMatch(
      /#\d+ item\.started/,
    );
    await screenshot(page, "daily-4-raw-record", false);
    const form = page.getByRole("form", { name: "New session" });
    await expect(form.getByLabel("Agent command").count()).resolves.toBe(0);
    await form.getByLabel("Provider").selectOption("acp");
    await expect(form.getByLabel("Agent command").isVisible()).resolves.toBe(true);
    await form.getByLabel("Provider").selectOption("codex");
    expect(watched.errors).toEqual([]);
  });
});
