import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, REPO, screenshot, watchedPage } from "./support/browser.js";
import { lowContrastTexts } from "./support/contrast.js";

const CLI = join(REPO, "bin/provider-runtime.js");
const dir = mkdtempSync(join(tmpdir(), "inspector-static-"));
let browser: Browser;

function viewHtml(fixture: string): string {
  const result = spawnSync(process.execPath, [CLI, "view", "--html", join(REPO, fixture)], {
    encoding: "utf8",
  });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  const file = join(dir, `${fixture.replace(/[/.]/g, "_")}.html`);
  writeFileSync(file, result.stdout);
  return file;
}

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("view --html", () => {
  it("is one self-contained file: no script or stylesheet by URL, a CSP that allows no network", () => {
    const html = readFileSync(viewHtml("test/fixtures/codex/shell.expected.jsonl"), "utf8");
    expect(html).not.toMatch(/<script[^>]*\ssrc=/);
    expect(html).not.toMatch(/<link[^>]*stylesheet/);
    // the page's own script and stylesheet by their hashes: no other inline script may run
    expect(html).toMatch(/default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; style-src 'sha256-/);
    expect(html).not.toContain("unsafe-inline");
    expect(html.match(/Content-Security-Policy/g)).toHaveLength(1);
    expect(html).toContain('id="provider-runtime-events"');
    expect(html).not.toContain('"raw":');
  });

  it("renders a Codex shell turn with no console error: the command, its output and its exit code", async () => {
    const { page, errors, requests, context } = await watchedPage(browser);
    const url = pathToFileURL(viewHtml("test/fixtures/codex/shell.expected.jsonl")).href;
    await page.goto(url);
    const command = page.locator('[data-item-type="command_execution"]').first();
    await command.waitFor();
    await expect(command.locator(".command-line").textContent()).resolves.toMatch(/^\$ \S/);
    await expect(command.locator("[data-exit-code]").getAttribute("data-exit-code")).resolves.toBe("0");
    await expect(command.locator(".output").textContent()).resolves.not.toBe("");
    await expect(page.locator("[data-turn-end]").first().getAttribute("data-turn-end")).resolves.toBe(
      "completed",
    );
    await expect(page.locator(".request-resolved").first().textContent()).resolves.toMatch(/accept/);
    await screenshot(page, "static-codex-shell");
    await expect(lowContrastTexts(page)).resolves.toEqual([]);
    expect(errors).toEqual([]);
    expect(requests.filter((r) => !r.startsWith("file:"))).toEqual([]);
    await context.close();
  });

  it("renders a file change with its diff, added lines marked", async () => {
    const { page, errors, context } = await watchedPage(browser);
    await page.goto(pathToFileURL(viewHtml("test/fixtures/codex/edit.expected.jsonl")).href);
    const change = page.locator('[data-item-type="file_change"]').first();
    await change.waitFor();
    await expect(change.locator(".change-path").textContent()).resolves.toContain("mock-edit.txt");
    await expect(change.locator(".diff-add").first().textContent()).resolves.toBe(
      "+written by the mock model\n",
    );
    await screenshot(page, "static-codex-edit");
    await expect(lowContrastTexts(page)).resolves.toEqual([]);
    // the check itself finds a pale text
    // (its colour set through the CSSOM: the page's policy refuses a style attribute in markup)
    await page.evaluate(
      `{ const p = document.createElement("p"); p.textContent = "pale"; p.style.color = "#bbb"; document.body.append(p); }`,
    );
    await expect(lowContrastTexts(page)).resolves.toEqual([expect.stringMatching(/^P\. 1\.\d\d: pale$/)]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("nests a Claude subagent's activity under the call that spawned it, reasoning collapsed", async () => {
    const { page, errors, context } = await watchedPage(browser, { width: 390, height: 844 });
    await page.goto(pathToFileURL(viewHtml("test/fixtures/claude/subagent.expected.jsonl")).href);
    const spawner = page.locator('[data-item-type="collab_agent_tool_call"]').first();
    await spawner.waitFor();
    await expect(spawner.locator(".nested .item").count()).resolves.toBeGreaterThan(0);
    const width = await page.evaluate<number>("document.documentElement.scrollWidth");
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(page, "static-claude-subagent-390");
    await expect(lowContrastTexts(page)).resolves.toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an unreadable input is exit 1 with nothing on stdout (the page is written only once the input reads)", () => {
    const result = spawnSync(process.execPath, [CLI, "view", "--html", join(dir, "missing.jsonl")], {
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/missing\.jsonl/);
  });

  it("keeps hostile strings inert: a </script> in an event is text, not markup", async () => {
    const events = readFileSync(join(REPO, "test/fixtures/codex/text.expected.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const delta = events.find((e) => e.type === "content.delta");
    delta.payload.delta = '</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">';
    const input = join(dir, "hostile.jsonl");
    writeFileSync(input, `${events.map((e) => JSON.stringify(e)).join("\n")}\nnot json\n`);
    const result = spawnSync(process.execPath, [CLI, "view", "--html", input], { encoding: "utf8" });
    expect(result.status).toBe(0);
    const file = join(dir, "hostile.html");
    writeFileSync(file, result.stdout);
    const { page, errors, context } = await watchedPage(browser);
    await page.goto(pathToFileURL(file).href);
    await page.locator('[data-item-type="assistant_message"]').first().waitFor();
    await expect(page.evaluate("window.pwned")).resolves.toBeUndefined();
    await expect(page.locator(".message").allTextContents()).resolves.toContainEqual(
      expect.stringContaining("</script><script>window.pwned=1</script>"),
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
