import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServeProcess } from "../server/support/serve-process.js";
import { launchChromium, screenshot, type WatchedPage, watchedPage } from "./support/browser.js";
import { liveServeDirs, prompt, startSession, turnEnd } from "./support/live-page.js";
import { loginFragment } from "./support/login-url.js";

/** [sessions] from the page, in Chromium against `serve --mock` (real codex app-server, mock model). */

const TOKEN = "inspector-sessions-token-0123456789";
const dirs = liveServeDirs("inspector-sessions-", TOKEN);
let browser: Browser;
let server: ServeProcess;
let watched: WatchedPage;

async function api(path: string, method = "GET"): Promise<Response> {
  return fetch(`${server.url}${path}`, { method, headers: { Authorization: `Bearer ${TOKEN}` } });
}

const settings = (page: Page) => page.getByRole("region", { name: "Session settings" });

beforeAll(async () => {
  browser = await launchChromium();
  server = await dirs.serveMock();
  watched = await watchedPage(browser, { width: 1440, height: 900 });
  await watched.page.goto(`${server.url}/${await loginFragment(server)}`);
  // one session of two turns: its title is the first prompt, the second is found only by the server's search
  await startSession(watched.page, "codex", dirs.root);
  await prompt(watched.page, "mock:text hello");
  await expect(turnEnd(watched.page, 1)).resolves.toBe("completed");
  await prompt(watched.page, "mock:text what is in the image");
  await expect(turnEnd(watched.page, 2)).resolves.toBe("completed");
});

afterAll(async () => {
  await watched?.context.close();
  await browser?.close();
  await server?.stop();
  dirs.remove();
});

describe("sessions from the page (1440 px)", () => {
  it("a fork from a finished turn appears in the list with its parent, and opens", async () => {
    const { page } = watched;
    const parent = await page.locator(".session").getAttribute("data-session-id");
    await page
      .getByRole("region", { name: "Turn 1", exact: true })
      .getByRole("button", { name: "Fork from here" })
      .click();
    await page.locator(`.session:not([data-session-id="${parent}"])`).waitFor();
    const fork = page.locator('.session-button[aria-current="true"]');
    await expect(fork.locator(".forked-from").getAttribute("data-parent-id")).resolves.toBe(parent);
    // the fork ends with turn 1: its record names the parent, its stream the parent's first turn
    const id = await page.locator(".session").getAttribute("data-session-id");
    const detail = (await (await api(`/v1/sessions/${id}`)).json()) as { session: { parentId?: string } };
    expect(detail.session.parentId).toBe(parent);
    const parentView = (await (await api(`/v1/sessions/${parent}`)).json()) as {
      view: { turns: Array<{ turnId: string }> };
    };
    const { events } = (await (await api(`/v1/sessions/${id}/events?limit=1000`)).json()) as {
      events: Array<{ type: string; payload: { forkedFrom?: { sessionId: string; turnId?: string } } }>;
    };
    const started = events.find((e) => e.type === "session.started");
    expect(started?.payload.forkedFrom).toEqual({
      sessionId: parent,
      turnId: parentView.view.turns[0]?.turnId,
    });
    await screenshot(page, "sessions-fork", false);
  });

  it("the search box finds a session by a prompt that is not its title, and nothing for words no session has", async () => {
    const { page } = watched;
    const search = page.getByLabel("Search sessions");
    await search.fill("what is in the image");
    await expect
      .poll(() => page.locator(".session-button .session-title").allTextContents())
      .toContain("mock:text hello");
    await search.fill("zebra quartz nowhere");
    await expect.poll(() => page.locator(".session-button").count()).toBe(0);
    await search.fill("");
    await expect.poll(() => page.locator(".session-button").count()).toBeGreaterThanOrEqual(2);
  });

  it("rename, archive (hidden until Show archived) and delete (gone, 404)", async () => {
    const { page } = watched;
    const id = (await page.locator(".session").getAttribute("data-session-id")) as string;
    // a prompt on the fork that no title holds: only the server's search finds it
    await prompt(page, "mock:text marmalade on the fork");
    await expect(turnEnd(page, 1)).resolves.toBe("completed");
    await settings(page).getByRole("button", { name: "Rename" }).click();
    await settings(page).getByLabel("Title").fill("renamed from the page");
    await settings(page).getByRole("button", { name: "Save" }).click();
    await page
      .locator(`.session-button[data-session-id="${id}"] .session-title`, {
        hasText: "renamed from the page",
      })
      .waitFor();
    await settings(page).getByRole("button", { name: "Archive" }).click();
    await page.locator(`.session-button[data-session-id="${id}"]`).waitFor({ state: "detached" });
    await page.getByLabel("Show archived").check();
    await page.locator(`.session-button[data-session-id="${id}"]`).waitFor();
    // an archived session is found by a prompt of it too, once archived ones are shown
    await page.getByLabel("Search sessions").fill("marmalade");
    await page.locator(`.session-button[data-session-id="${id}"]`).waitFor();
    await expect.poll(() => page.locator(".session-button").count()).toBe(1);
    await page.getByLabel("Search sessions").fill("");
    page.once("dialog", (dialog) => void dialog.accept());
    await settings(page).getByRole("button", { name: "Delete" }).click();
    await page.locator(`.session-button[data-session-id="${id}"]`).waitFor({ state: "detached" });
    expect((await api(`/v1/sessions/${id}`)).status).toBe(404);
    expect(watched.errors).toEqual([]);
  });
});

it("at 390 px: the settings fit the width and the drawer's search works", async () => {
  const { page, context } = await watchedPage(browser, { width: 390, height: 844 });
  await page.goto(`${server.url}/${await loginFragment(server)}`);
  await page.locator(".session-button").first().click();
  await settings(page).waitFor();
  await expect(page.evaluate<number>("document.documentElement.scrollWidth")).resolves.toBeLessThanOrEqual(
    390,
  );
  await page.getByRole("button", { name: /^Sessions/ }).click();
  await page.getByLabel("Search sessions").fill("what is in the image");
  await expect
    .poll(() => page.locator(".session-button .session-title").allTextContents())
    .toContain("mock:text hello");
  await screenshot(page, "sessions-390", false);
  await context.close();
});
