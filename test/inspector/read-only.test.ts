import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { ServeProcess } from "../server/support/serve-process.js";
import { launchChromium, REPO, screenshot, watchedPage } from "./support/browser.js";
import { loginFragment } from "./support/login-url.js";

const TOKEN = "inspector-read-only-token";
const base = mkdtempSync(join(tmpdir(), "inspector-readonly-"));
let browser: Browser;
let server: ServeProcess;

beforeAll(async () => {
  const events = readFileSync(join(REPO, "test/fixtures/claude/shell.expected.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RuntimeEvent);
  const sessionId = events[0]?.sessionId as string;
  const store = await openSqliteStore({ dataDir: join(base, "data") });
  const at = events[0]?.createdAt as string;
  await store.createSession({
    id: sessionId,
    provider: "claude-code",
    origin: "import",
    createdAt: at,
    updatedAt: at,
    state: "stopped",
    lastSequence: 0,
    openRequests: 0,
    title: "an imported history",
    exited: true,
  });
  await store.append(sessionId, events);
  await store.close();
  mkdirSync(join(base, "tmp"));
  server = await ServeProcess.start({
    data: join(base, "data"),
    tmp: join(base, "tmp"),
    token: TOKEN,
    extra: ["--mock", "--root", base],
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(base, { recursive: true, force: true });
});

it("an imported history opens read-only: its timeline, no prompt, no Interrupt or Stop", async () => {
  const { page, context, errors } = await watchedPage(browser);
  await page.goto(`${server.url}/${await loginFragment(server)}`);
  const entry = page.locator(".session-button", { hasText: "an imported history" });
  await expect(entry.locator(".badge", { hasText: "history" }).count()).resolves.toBe(1);
  await entry.click();
  await page.locator('[data-item-type="command_execution"]').waitFor();
  await expect(page.locator(".stream-status").textContent()).resolves.toContain("read-only history");
  await expect(page.getByLabel("Prompt").count()).resolves.toBe(0);
  await expect(page.getByRole("button", { name: "Stop", exact: true }).count()).resolves.toBe(0);
  await screenshot(page, "live-imported-read-only");
  expect(errors).toEqual([]);
  await context.close();
});

it("a wrong token is refused: the page forgets it and asks for one", async () => {
  const { page, context } = await watchedPage(browser);
  await page.goto(`${server.url}/`);
  await page.getByLabel(/^Token/).fill("not-the-token");
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByRole("alert").filter({ hasText: "refused" }).waitFor();
  await expect(page.evaluate("sessionStorage.getItem('provider-runtime.token')")).resolves.toBeNull();
  await page.getByLabel(/^Token/).fill(TOKEN);
  await page.getByRole("button", { name: "Connect" }).click();
  await page.locator(".session-button").first().waitFor();
  await context.close();
});
