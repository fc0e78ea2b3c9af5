import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

export const REPO = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../..");
/** Screenshots of the browser tests: a test artifact, not committed. */
export const ARTIFACTS = join(REPO, "test-results/inspector");

/** Debian's chromium, headless, with nothing that phones home. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

/** A page that records every console error, uncaught exception and request it made. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  errors: string[];
  requests: string[];
}

export async function watchedPage(
  browser: Browser,
  viewport: { width: number; height: number } = { width: 1440, height: 900 },
): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("request", (request) => requests.push(request.url()));
  return { page, context, errors, requests };
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/** With UPDATE_SCREENSHOTS=1, the page as the docs show it: `docs/images/NAME.png`. */
export async function docsScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== "1") return;
  mkdirSync(join(REPO, "docs/images"), { recursive: true });
  await page.screenshot({ path: join(REPO, "docs/images", `${name}.png`) });
}
