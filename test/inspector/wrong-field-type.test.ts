import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { ServeProcess } from "../server/support/serve-process.js";
import { launchChromium, REPO, watchedPage } from "./support/browser.js";
import { loginFragment } from "./support/login-url.js";

/*
 * One event with a field of the wrong type must not blank a session's view: the page shows the rest. Hand-written
 * variation of a real recording (test/fixtures/claude/shell.expected.jsonl): its first turn's `turn.completed`
 * carries `totalCostUsd` as a string, which no real program sends but a foreign writer of the store could.
 */

const TOKEN = "inspector-wrong-field-type-token";
const base = mkdtempSync(join(tmpdir(), "inspector-wrong-type-"));
const events = readFileSync(join(REPO, "test/fixtures/claude/shell.expected.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as RuntimeEvent);
const broken = events.find((e) => e.type === "turn.completed") as RuntimeEvent & { payload: object };
Object.assign(broken.payload, { totalCostUsd: "0.05 USD" });
const sessionId = events[0]?.sessionId as string;
let browser: Browser;
let server: ServeProcess;

beforeAll(async () => {
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
    title: "a history with a bad field",
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

/** The session's items are drawn, the bad part is named in place, the rest of the page is there. */
async function expectTheRest(page: Page): Promise<void> {
  await page.locator('[data-item-type="command_execution"]').first().waitFor();
  await expect(page.locator('[data-item-type="assistant_message"]').count()).resolves.toBeGreaterThan(0);
  // the turn's end line is what throws (its cost is drawn with toFixed): it alone is replaced by a note
  await expect(page.locator(".render-error").allTextContents()).resolves.toEqual([
    expect.stringMatching(/^This turn's end could not be shown/),
  ]);
  // the summary is drawn: the tokens added up, the cost that is no number left out of the total
  await expect(page.locator("[data-total-tokens]").getAttribute("data-total-tokens")).resolves.toMatch(
    /^\d+$/,
  );
  await expect(page.locator("xpath=//dt[.='Cost']/following-sibling::dd").textContent()).resolves.toBe("–");
}

describe("an event with a wrong field type", () => {
  it("live inspector: the session's timeline shows every other item, the bad part says so", async () => {
    const { page, context, errors } = await watchedPage(browser);
    await page.goto(`${server.url}/${await loginFragment(server)}`);
    await page.locator(".session-button", { hasText: "a history with a bad field" }).click();
    await expectTheRest(page);
    // the page as a whole is still alive: the list and the session's header are there
    await expect(page.locator(".session-button").count()).resolves.toBe(1);
    expect(errors.filter((e) => !/could not be shown|toFixed/.test(e))).toEqual([]);
    await context.close();
  });

  it("view --html: the static page shows every other item", async () => {
    const input = join(base, "bad-field.jsonl");
    writeFileSync(input, `${events.map((e) => JSON.stringify(e)).join("\n")}\n`);
    const result = spawnSync(
      process.execPath,
      [join(REPO, "bin/provider-runtime.js"), "view", "--html", input],
      {
        encoding: "utf8",
      },
    );
    expect(result.status).toBe(0);
    const file = join(base, "bad-field.html");
    writeFileSync(file, result.stdout);
    const { page, context } = await watchedPage(browser);
    await page.goto(pathToFileURL(file).href);
    await expectTheRest(page);
    await context.close();
  });
});
