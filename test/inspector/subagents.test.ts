import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { launchChromium, REPO, screenshot, watchedPage } from "./support/browser.js";

/** The subagents panel: a real Claude subagent recording, cut while the subagent runs, and whole. */

const dir = mkdtempSync(join(tmpdir(), "inspector-subagents-"));
let browser: Browser;
const events = readFileSync(join(REPO, "test/fixtures/claude/subagent.expected.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as RuntimeEvent);

function page(name: string, stream: RuntimeEvent[]): string {
  const input = join(dir, `${name}.jsonl`);
  writeFileSync(input, `${stream.map((e) => JSON.stringify(e)).join("\n")}\n`);
  const result = spawnSync(
    process.execPath,
    [join(REPO, "bin/provider-runtime.js"), "view", "--html", input],
    {
      encoding: "utf8",
    },
  );
  expect(result.status).toBe(0);
  writeFileSync(join(dir, `${name}.html`), result.stdout);
  return pathToFileURL(join(dir, `${name}.html`)).href;
}

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

it.each([1440, 390])(
  "at %i px: a subagent is listed running while it runs, completed once done",
  async (width) => {
    const spawned = events.find(
      (e) => e.type === "item.completed" && e.payload.itemType === "collab_agent_tool_call",
    ) as RuntimeEvent;
    // the stream up to the subagent's first own item: it has started and not ended
    const firstChild = events.findIndex((e) => e.parentItemId === spawned.itemId);
    expect(firstChild).toBeGreaterThan(0);
    const { page: tab, context, errors } = await watchedPage(browser, { width, height: 844 });
    await tab.goto(page("running", events.slice(0, firstChild + 1)));
    const agents = tab.getByRole("region", { name: "Subagents" });
    const running = agents.locator('[data-subagent-state="running"]');
    await running.waitFor();
    await expect(running.textContent()).resolves.toContain("Mock subagent");
    await expect(agents.locator("h3").textContent()).resolves.toContain("1 running");
    await screenshot(tab, `subagents-running-${width}`, false);
    await tab.goto(page("done", events));
    await agents.locator('[data-subagent-state="completed"]').waitFor();
    await expect(agents.locator("h3").textContent()).resolves.toContain("0 running");
    expect(errors).toEqual([]);
    await context.close();
  },
);
