import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import type { ServeProcess } from "../server/support/serve-process.js";
import { launchChromium, screenshot, type WatchedPage, watchedPage } from "./support/browser.js";
import { liveServeDirs, prompt, startSession, turnEnd } from "./support/live-page.js";
import { loginFragment } from "./support/login-url.js";
import { TcpProxy } from "./support/tcp-proxy.js";

const TOKEN = "inspector-test-token-0123456789";
const dirs = liveServeDirs("inspector-live-", TOKEN);
const { root, serveMock } = dirs;

let browser: Browser;
let server: ServeProcess;
let url: string;
let watched: WatchedPage;
let proxy: TcpProxy;

/** Waits for the approval card and accepts it, by a click or (keyboard) by focusing the button and pressing Enter. */
async function acceptCard(page: Page, name: string, keyboard = false): Promise<void> {
  const card = page.locator(".session .request-card");
  await card.waitFor({ timeout: 60_000 });
  await screenshot(page, name, false);
  const accept = card.getByRole("button", { name: "Accept", exact: true });
  if (keyboard) {
    await accept.focus();
    await page.keyboard.press("Enter");
  } else await accept.click();
  await card.waitFor({ state: "detached", timeout: 60_000 });
}

/** Every message's text: a replayed delta would show up here as doubled text. */
async function messageTexts(page: Page): Promise<string[]> {
  return page.locator(".message").allTextContents();
}

async function itemIds(page: Page): Promise<string[]> {
  return page
    .locator("[data-item-id]")
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-item-id") ?? ""));
}

/** The server itself, for the test's own API calls (the page goes through the proxy). */
async function api(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status).toBeLessThan(300);
  return response.json();
}

beforeAll(async () => {
  browser = await launchChromium();
  server = await serveMock();
  proxy = await TcpProxy.start(server.port);
  url = proxy.url;
  watched = await watchedPage(browser);
  await watched.page.goto(`${url}/${await loginFragment(server)}`);
});

afterAll(async () => {
  await watched?.context.close();
  await browser?.close();
  await proxy?.close();
  await server?.stop();
  dirs.remove();
});

describe("the inspector against serve --mock", () => {
  it("takes the token from the URL fragment, keeps it for the tab, and sends it only as a header", async () => {
    const { page, requests } = watched;
    await page.getByRole("form", { name: "New session" }).waitFor();
    expect(page.url()).not.toContain(TOKEN);
    await expect(page.evaluate("sessionStorage.getItem('provider-runtime.token')")).resolves.toBe(TOKEN);
    expect(requests.some((r) => r.includes(TOKEN))).toBe(false);
  });

  it("Codex: an edit approved shows its diff; a shell approval card, Accept, the command's output and the turn end", async () => {
    const { page } = watched;
    await startSession(page, "codex", root);
    await prompt(page, "mock:edit write a file");
    await acceptCard(page, "live-codex-1-edit-approval");
    await expect(turnEnd(page, 1)).resolves.toBe("completed");
    await expect(page.locator(".diff-add").first().textContent()).resolves.toContain(
      "written by the mock model",
    );
    await prompt(page, "mock:shell run a command");
    const card = page.locator(".session .request-card");
    await card.waitFor({ timeout: 60_000 });
    await expect(card.locator("h3").textContent()).resolves.toBe("Run this command?");
    await acceptCard(page, "live-codex-2-shell-approval");
    await expect(turnEnd(page, 2)).resolves.toBe("completed");
    const command = page
      .getByRole("region", { name: "Turn 2", exact: true })
      .locator('[data-item-type="command_execution"]');
    await expect(command.locator(".output").textContent()).resolves.toContain("mock-shell-output");
    await expect(command.locator("[data-exit-code]").getAttribute("data-exit-code")).resolves.toBe("0");
    await screenshot(page, "live-codex-3-turn-done");
  });

  it("Claude: the shell approval card, Accept by keyboard, the output and the turn end", async () => {
    const { page } = watched;
    await startSession(page, "claude", root);
    await prompt(page, "mock:shell run a command");
    await acceptCard(page, "live-claude-1-shell-approval", true);
    await expect(turnEnd(page, 1)).resolves.toBe("completed");
    const command = page.locator('[data-item-type="command_execution"]').first();
    await expect(command.locator(".output").textContent()).resolves.toContain("mock-shell-output");
    await screenshot(page, "live-claude-2-turn-done");
    expect(watched.errors).toEqual([]);
  });

  it("a network drop mid-turn: the page says so, and once back shows what happened meanwhile, once", async () => {
    const { page } = watched;
    const sessionId = await page.locator(".session").getAttribute("data-session-id");
    await prompt(page, "mock:shell run a command");
    const card = page.locator(".session .request-card");
    await card.waitFor({ timeout: 60_000 });
    const textsBefore = await messageTexts(page);
    proxy.cut();
    await page.locator('[data-stream-status="retrying"]').waitFor({ timeout: 30_000 });
    await screenshot(page, "live-network-1-cut", false);
    // the turn goes on while the page is cut off: the approval answered from elsewhere, the command run
    const detail = (await api(`/v1/sessions/${sessionId}`)) as {
      view: { requests: Array<{ requestId: string; status: string }> };
    };
    const open = detail.view.requests.find((r) => r.status === "open");
    await api(`/v1/sessions/${sessionId}/requests/${open?.requestId}`, { decision: "accept" });
    await expect
      .poll(
        async () =>
          ((await api(`/v1/sessions/${sessionId}`)) as { session: { state: string } }).session.state,
        { timeout: 60_000 },
      )
      .toBe("ready");
    proxy.restore();
    await page.locator('[data-stream-status="live"]').waitFor({ timeout: 30_000 });
    await card.waitFor({ state: "detached", timeout: 30_000 });
    await expect(turnEnd(page, 2)).resolves.toBe("completed");
    const ids = await itemIds(page);
    expect(new Set(ids).size).toBe(ids.length);
    const texts = await messageTexts(page);
    expect(texts.slice(0, textsBefore.length)).toEqual(textsBefore);
    expect(texts.filter((t) => t === "mock final answer: shell (saw mock-shell-output)")).toHaveLength(2);
    await screenshot(page, "live-network-2-back");
  });

  it("a server restart: the page says it lost the connection, comes back live, and shows nothing twice", async () => {
    const { page, errors } = watched;
    const before = await itemIds(page);
    const textsBefore = await messageTexts(page);
    const lastBefore = Number(await page.locator(".session").getAttribute("data-last-sequence"));
    expect(before.length).toBeGreaterThan(0);
    await server.stop();
    await page.locator('[data-stream-status="retrying"]').waitFor({ timeout: 30_000 });
    await screenshot(page, "live-restart-1-connection-lost", false);
    server = await serveMock();
    proxy.retarget(server.port);
    await page.locator('[data-stream-status="live"]').waitFor({ timeout: 30_000 });
    // the server closed the session at its stop (session.exited): the page gets those events, once each
    await page.locator('[data-session-state="stopped"]').waitFor({ timeout: 30_000 });
    const after = await itemIds(page);
    expect(new Set(after).size).toBe(after.length);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(await messageTexts(page)).toEqual(textsBefore);
    expect(textsBefore).toContain("mock final answer: shell (saw mock-shell-output)");
    expect(Number(await page.locator(".session").getAttribute("data-last-sequence"))).toBeGreaterThanOrEqual(
      lastBefore,
    );
    await screenshot(page, "live-restart-2-recovered");
    // a dropped connection is logged by the browser itself; nothing else may be
    expect(errors.filter((e) => !/Failed to load resource|net::ERR_/.test(e))).toEqual([]);
  });

  it("Claude asks a question: the form shows its choices, an answer is sent keyed as asked, the turn ends", async () => {
    const { page } = watched;
    const sessionId = await startSession(page, "claude", root);
    await prompt(page, "mock:question ask me");
    const card = page.locator('.session .request-card[data-request-type="tool_user_input"]');
    await card.waitFor({ timeout: 60_000 });
    const send = card.getByRole("button", { name: "Send answers" });
    await expect(send.isDisabled()).resolves.toBe(true);
    await card.getByLabel(/^Green/).check();
    await screenshot(page, "live-claude-question-form", false);
    await send.click();
    await card.waitFor({ state: "detached", timeout: 60_000 });
    await expect(turnEnd(page, 1)).resolves.toBe("completed");
    await expect(page.locator(".request-resolved").first().textContent()).resolves.toContain("Question");
    const response = await fetch(`${url}/v1/sessions/${sessionId}/events?limit=1000`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const { events } = (await response.json()) as { events: RuntimeEvent[] };
    const answered = events.find((e) => e.type === "user-input.resolved");
    expect(answered?.payload).toEqual({ answers: { "Which colour should the mock use?": "Green" } });
    await screenshot(page, "live-claude-question-answered");
  });

  it("Interrupt while an approval waits ends the turn and cancels the request; Stop stops the session", async () => {
    const { page } = watched;
    await startSession(page, "codex", root);
    await prompt(page, "mock:shell run a command");
    await page.locator(".session .request-card").waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Interrupt", exact: true }).click();
    await page.locator(".session .request-card").waitFor({ state: "detached", timeout: 60_000 });
    await expect(turnEnd(page, 1)).resolves.toBe("interrupted");
    await expect(page.locator(".request-resolved").first().textContent()).resolves.toContain("cancel");
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await page.locator('[data-session-state="stopped"]').waitFor({ timeout: 30_000 });
    await screenshot(page, "live-codex-interrupted-stopped");
  });

  it("works at 390 px: the form, the list and the session fit the width", async () => {
    const { page, context } = await watchedPage(browser, { width: 390, height: 844 });
    await page.goto(`${url}/${await loginFragment(server)}`);
    await page.locator(".session-button").first().click();
    await page.locator("[data-turn-end]").first().waitFor();
    await expect(page.evaluate<number>("document.documentElement.scrollWidth")).resolves.toBeLessThanOrEqual(
      390,
    );
    await screenshot(page, "live-390");
    await context.close();
  });
});
