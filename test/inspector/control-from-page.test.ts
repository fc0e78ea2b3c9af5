import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServeProcess } from "../server/support/serve-process.js";
import { launchChromium, screenshot, type WatchedPage, watchedPage } from "./support/browser.js";
import { liveServeDirs, prompt, startSession, turnEnd } from "./support/live-page.js";
import { loginFragment } from "./support/login-url.js";

const TOKEN = "inspector-control-token-0123456789";
const dirs = liveServeDirs("inspector-control-", TOKEN);
let browser: Browser;
let server: ServeProcess;
let watched: WatchedPage;

async function api(path: string, method = "GET", body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const settings = (page: Page) => page.getByRole("region", { name: "Session settings" });

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

describe("the command surface from the page (1440 px)", () => {
  it("the agents view lists codex and claude with their versions and capabilities", async () => {
    const { page } = watched;
    await page.getByRole("button", { name: "Agents", exact: true }).click();
    const view = page.getByRole("region", { name: "Agents" });
    for (const name of ["codex", "claude"]) {
      const row = view.locator(`tr[data-agent="${name}"]`);
      await row.waitFor();
      await expect(row.locator("[data-version]").textContent()).resolves.toMatch(/\d+\.\d+/);
      await expect(row.locator(".capabilities .badge").count()).resolves.toBeGreaterThan(0);
    }
    await screenshot(page, "control-agents-view", false);
    await view.getByRole("button", { name: "Close" }).click();
  });

  it("model and mode from the pickers reach the agent (session.configured)", async () => {
    const { page } = watched;
    const id = await startSession(page, "codex", dirs.root);
    await prompt(page, "mock:text hello");
    await expect(turnEnd(page, 1)).resolves.toBe("completed");
    const mode = settings(page).getByLabel("Mode", { exact: true });
    const options = await mode.locator("option").allTextContents();
    expect(options.length).toBeGreaterThan(1);
    await mode.selectOption({ index: 1 });
    await expect
      .poll(async () => {
        const detail = (await (await api(`/v1/sessions/${id}`)).json()) as {
          view: { config: Record<string, unknown> };
        };
        return detail.view.config.mode !== undefined;
      })
      .toBe(true);
    await expect(page.getByRole("alert").count()).resolves.toBe(0);
    // the picker shows the mode the stream now says, not "choose…" again
    const picked = (await mode.locator("option").nth(1).getAttribute("value")) as string;
    await expect.poll(() => mode.inputValue()).toBe(picked);
  });

  it("an image attached by the picker goes with the turn", async () => {
    const { page } = watched;
    const png = join(dirs.root, "pixel.png");
    const pixel =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    writeFileSync(png, Buffer.from(pixel, "base64"));
    await page.locator('.attach-button input[type="file"]').setInputFiles(png);
    await page.locator('.badge.attached[data-attachment-type="image"]').waitFor();
    await prompt(page, "mock:text what is in the image");
    await expect(turnEnd(page, 2)).resolves.toBe("completed");
    await expect(page.locator(".badge.attached").count()).resolves.toBe(0);
    // the image reached the agent: Codex's own record of the turn's input holds its bytes
    const id = await page.locator(".session").getAttribute("data-session-id");
    const { events } = (await (await api(`/v1/sessions/${id}/events?limit=1000`)).json()) as {
      events: unknown[];
    };
    expect(JSON.stringify(events)).toContain(`data:image/png;base64,${pixel}`);
  });

  it("a file that is not an image is refused at the picker, saying why (the page has no path to send)", async () => {
    const { page } = watched;
    const notes = join(dirs.root, "notes.txt");
    writeFileSync(notes, "plain text\n");
    await page.locator('.attach-button input[type="file"]').setInputFiles(notes);
    await expect(page.locator(".composer [role=alert]").textContent()).resolves.toMatch(
      /notes\.txt: only png, jpeg, gif and webp images/,
    );
    await expect(page.locator(".badge.attached").count()).resolves.toBe(0);
  });
});
