import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServeProcess } from "../server/support/serve-process.js";
import { launchChromium, watchedPage } from "./support/browser.js";
import { loginFragment } from "./support/login-url.js";

/**
 * The inspector opened with a one-time code (`/#code=…`) in the real Chromium: the page exchanges the code for the
 * token once and takes it out of the address bar, so the URL — copied, or kept in the history — is spent.
 */

const TOKEN = "login-code-inspector-token-0123456789";
let browser: Browser;
let server: ServeProcess;

beforeAll(async () => {
  server = await ServeProcess.start({ token: TOKEN });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  ServeProcess.removeDirs();
});

const heading = (page: Page) => page.getByRole("heading", { name: "provider-runtime inspector" });
const tokenField = (page: Page) => page.getByLabel(/^Token/);
const storedToken = (page: Page) => page.evaluate("sessionStorage.getItem('provider-runtime.token')");

describe("the inspector with a one-time login code", () => {
  it("the code serve printed opens the page once; the address bar and history keep no secret", async () => {
    await server.cli.waitFor("err", /the inspector: \S+#code=/);
    const url = /the inspector: (\S+)/.exec(server.stderr)?.[1] ?? "";
    const code = url.slice(url.indexOf("#code=") + "#code=".length);
    expect(code.length).toBeGreaterThan(20);

    const first = await watchedPage(browser);
    const exchanged = first.page.waitForResponse((r) => r.url().endsWith("/v1/login-codes/exchange"));
    await first.page.goto(url);
    expect((await exchanged).status()).toBe(200);
    await heading(first.page).waitFor();
    await expect(storedToken(first.page)).resolves.toBe(TOKEN);
    expect(first.page.url()).toBe(`${server.url}/`);
    // the history entry itself was rewritten: leave the page and come back to it
    await first.page.goto("about:blank");
    await first.page.goBack();
    expect(first.page.url()).toBe(`${server.url}/`);
    await heading(first.page).waitFor();
    for (const request of first.requests) {
      expect(request).not.toContain(TOKEN);
      expect(request).not.toContain(code);
    }
    expect(first.errors).toEqual([]);
    await first.context.close();

    // the same URL again (copied, or from the history of another profile): no token, the token form instead
    const second = await watchedPage(browser);
    const refused = second.page.waitForResponse((r) => r.url().endsWith("/v1/login-codes/exchange"));
    await second.page.goto(url);
    expect((await refused).status()).toBe(401);
    await tokenField(second.page).waitFor();
    await expect(storedToken(second.page)).resolves.toBeNull();
    expect(second.page.url()).toBe(`${server.url}/`);
    await expect(heading(second.page).count()).resolves.toBe(0);
    await second.context.close();
  });

  it("a code from POST /v1/login-codes keeps the rest of the fragment (the selected session)", async () => {
    const fragment = await loginFragment(server);
    const { page, context } = await watchedPage(browser);
    await page.goto(`${server.url}/${fragment.replace("#code=", "#session=s1&code=")}`);
    await heading(page).waitFor();
    expect(page.url()).toBe(`${server.url}/#session=s1`);
    await context.close();
  });

  it("a token in the fragment is not used, and is taken out of the address bar", async () => {
    const { page, context } = await watchedPage(browser);
    await page.goto(`${server.url}/#token=${TOKEN}`);
    await tokenField(page).waitFor();
    expect(page.url()).toBe(`${server.url}/`);
    await expect(storedToken(page)).resolves.toBeNull();
    await context.close();
  });
});
