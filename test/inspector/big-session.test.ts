import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";
import { verifyEvents } from "../../src/verify/index.js";
import { bigSession } from "./support/big-session.js";
import { launchChromium, REPO, screenshot, watchedPage } from "./support/browser.js";

it("a 10,000-event session renders in a static page to its last event, every turn drawn, no console error", async () => {
  const events = bigSession(10_000);
  expect(events.length).toBeGreaterThanOrEqual(10_000);
  expect(verifyEvents(events)).toEqual([]);
  const dir = mkdtempSync(join(tmpdir(), "inspector-big-"));
  const browser = await launchChromium();
  try {
    const input = join(dir, "big.jsonl");
    writeFileSync(input, `${events.map((e) => JSON.stringify(e)).join("\n")}\n`);
    const cli = spawnSync(
      process.execPath,
      [join(REPO, "bin/provider-runtime.js"), "view", "--html", input],
      {
        encoding: "utf8",
        maxBuffer: 1 << 30,
      },
    );
    expect(cli.status).toBe(0);
    writeFileSync(join(dir, "big.html"), cli.stdout);
    const turns = new Set(events.map((e) => e.turnId).filter(Boolean)).size;
    const { page, errors } = await watchedPage(browser);
    await page.goto(pathToFileURL(join(dir, "big.html")).href);
    await page.locator(`[data-last-sequence="${events.length}"]`).waitFor();
    await expect(page.locator("section.turn").count()).resolves.toBe(turns);
    await page.locator("section.turn").last().scrollIntoViewIfNeeded();
    await expect(
      page.locator("section.turn").last().locator("[data-turn-end]").textContent(),
    ).resolves.toMatch(/Turn (completed|failed|interrupted)/);
    await screenshot(page, "static-10k-last-turn", false);
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
