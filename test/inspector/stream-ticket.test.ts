import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServeProcess } from "../server/support/serve-process.js";
import { launchChromium } from "./support/browser.js";
import { liveServeDirs } from "./support/live-page.js";

/**
 * Stream tickets (DESIGN.md §9): a browser's native EventSource, which cannot send the Authorization header,
 * subscribes with `?ticket=`; a ticket is single use and good for its own session only.
 */

const TOKEN = "stream-ticket-test-token-0123456789";
const dirs = liveServeDirs("stream-ticket-", TOKEN);
let browser: Browser;
let server: ServeProcess;
let page: Page;

async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await server.fetch(path, {
    method: "POST",
    ...(body === undefined ? {} : { json: body }),
  });
  expect(response.status).toBeLessThan(300);
  return (await response.json()) as T;
}

async function sessionWithATurn(): Promise<string> {
  const { id } = await api<{ id: string }>("/v1/sessions", { provider: "codex", cwd: dirs.root });
  await api(`/v1/sessions/${id}/turns`, { text: "mock:text say hello" });
  return id;
}

const ticketFor = (id: string) =>
  api<{ ticket: string; expiresAt: string }>(`/v1/sessions/${id}/events/tickets`);

/** Opens a native EventSource in the page; its messages until `turn.completed`, or how it failed. */
function subscribe(url: string): Promise<{ events: Array<{ type: string; raw?: unknown }>; error?: string }> {
  return page.evaluate(
    (source) =>
      new Promise((resolve) => {
        const events: Array<{ type: string; raw?: unknown }> = [];
        const stream = new EventSource(source);
        stream.onmessage = (message) => {
          const event = JSON.parse(message.data);
          events.push(event);
          if (event.type === "turn.completed") {
            stream.close();
            resolve({ events });
          }
        };
        stream.onerror = () => {
          // a refused request closes the EventSource for good; a dropped stream would reconnect
          if (stream.readyState === EventSource.CLOSED) resolve({ events, error: "closed" });
        };
      }),
    url,
  );
}

beforeAll(async () => {
  browser = await launchChromium();
  server = await dirs.serveMock();
  page = await (await browser.newContext()).newPage();
  await page.goto(`${server.url}/`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  dirs.remove();
});

describe("an EventSource with a stream ticket", () => {
  it("receives the session's events in Chromium, raw=0 without native records", async () => {
    const id = await sessionWithATurn();
    const { ticket, expiresAt } = await ticketFor(id);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(50_000);
    const received = await subscribe(`/v1/sessions/${id}/events?ticket=${ticket}&raw=0`);
    expect(received.error).toBeUndefined();
    expect(received.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["session.started", "turn.started", "turn.completed"]),
    );
    expect(received.events.filter((e) => e.raw !== undefined)).toEqual([]);
  }, 120_000);

  it("refuses a ticket used twice, and one for another session", async () => {
    const id = await sessionWithATurn();
    const other = await sessionWithATurn();
    const { ticket } = await ticketFor(id);
    expect((await subscribe(`/v1/sessions/${id}/events?ticket=${ticket}`)).error).toBeUndefined();
    const reused = await subscribe(`/v1/sessions/${id}/events?ticket=${ticket}`);
    expect(reused).toEqual({ events: [], error: "closed" });
    const foreign = await ticketFor(other);
    expect(await subscribe(`/v1/sessions/${id}/events?ticket=${foreign.ticket}`)).toEqual({
      events: [],
      error: "closed",
    });
    // the same answers without a browser: 401, and a ticket opens no other route
    const again = await server.fetch(`/v1/sessions/${id}/events?ticket=${ticket}`, { auth: null });
    expect(again.status).toBe(401);
    const fresh = await ticketFor(id);
    const elsewhere = await server.fetch(`/v1/sessions/${id}?ticket=${fresh.ticket}`, { auth: null });
    expect(elsewhere.status).toBe(401);
    const json = await server.fetch(`/v1/sessions/${id}/events?ticket=${fresh.ticket}&raw=0`, { auth: null });
    expect(json.status).toBe(200);
    const body = (await json.json()) as { events: Array<{ raw?: unknown }> };
    expect(body.events.length).toBeGreaterThan(3);
    expect(body.events.filter((e) => e.raw !== undefined)).toEqual([]);
  }, 120_000);
});
