import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { feedingStore, SessionFeed, type SessionFeedMessage } from "../../src/server/session-feed.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import type { SessionRecord, SessionStore } from "../../src/store/types.js";
import { sampleEvent } from "../support/sample-events.js";

/** The session list's change feed over a real SQLite store. */

let dir: string;
let store: SessionStore;
const HOUR = 3_600_000;

const record = (id: string): SessionRecord => ({
  id,
  provider: "codex",
  origin: "live",
  createdAt: "2026-12-01T10:00:00.000Z",
  updatedAt: "2026-12-01T10:00:00.000Z",
  state: "starting",
  lastSequence: 0,
  openRequests: 0,
  exited: false,
});

/** Collects a subscriber's messages; `next` waits for the first one that matches. */
function listener() {
  const heard: SessionFeedMessage[] = [];
  const waiters = new Set<() => void>();
  return {
    heard,
    hear: (message: SessionFeedMessage) => {
      heard.push(message);
      for (const wake of [...waiters]) wake();
    },
    until: (test: (m: SessionFeedMessage) => boolean) =>
      new Promise<SessionFeedMessage>((resolve) => {
        const check = () => {
          const found = heard.find(test);
          if (found === undefined) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      }),
  };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "session-feed-"));
  store = await openSqliteStore({ dataDir: dir });
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("SessionFeed", () => {
  it("a snapshot, then each written change as the session's new summary (written through the feeding store)", async () => {
    const feed = new SessionFeed(store, { coalesceMs: 5, rescanMs: HOUR });
    const writer = feedingStore(store, feed);
    await writer.createSession(record("ses_a"));
    const a = listener();
    const { sessions, close } = await feed.subscribe(a.hear);
    expect(sessions.map((s) => s.id)).toEqual(["ses_a"]);
    await writer.createSession(record("ses_b"));
    await a.until((m) => m.kind === "session" && m.session.id === "ses_b");
    await writer.updateSession("ses_a", { state: "waiting", openRequests: 1, title: "a prompt" });
    const waiting = await a.until((m) => m.kind === "session" && m.session.state === "waiting");
    expect(waiting).toMatchObject({ session: { id: "ses_a", openRequests: 1, title: "a prompt" } });
    await writer.append("ses_a", [sampleEvent("session.state.changed", 1, { sessionId: "ses_a" } as never)]);
    await a.until((m) => m.kind === "session" && m.session.id === "ses_a" && m.session.lastSequence === 1);
    // nothing that did not change is sent again
    const count = a.heard.length;
    await writer.updateSession("ses_b", {});
    await writer.updateSession("ses_a", { state: "running" });
    await a.until((m) => m.kind === "session" && m.session.state === "running");
    expect(a.heard.slice(count).map((m) => (m.kind === "session" ? m.session.id : m.id))).toEqual(["ses_a"]);
    close();
  });

  it("the feeding store keeps the store's own flags and members", async () => {
    const writer = feedingStore(store, new SessionFeed(store));
    expect(writer.commitsOneTickTogether).toBe(store.commitsOneTickTogether);
    expect(writer.appendMovesLastSequence).toBe(store.appendMovesLastSequence);
    await writer.createSession(record("ses_c"));
    await expect(writer.getSession("ses_c")).resolves.toMatchObject({ id: "ses_c" });
  });

  it("a rescan finds what no writer of this process touched: a change and a removed session", async () => {
    const hidden = new Set<string>();
    const view: SessionStore = new Proxy(store, {
      get(target, key) {
        if (key === "listSessions")
          return async () => (await target.listSessions()).filter((s) => !hidden.has(s.id));
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await store.createSession(record("ses_d"));
    await store.createSession(record("ses_e"));
    const feed = new SessionFeed(view, { coalesceMs: 5, rescanMs: 20 });
    const d = listener();
    const { close } = await feed.subscribe(d.hear);
    await store.updateSession("ses_d", { state: "ready" });
    await d.until((m) => m.kind === "session" && m.session.id === "ses_d" && m.session.state === "ready");
    hidden.add("ses_e");
    await d.until((m) => m.kind === "removed" && m.id === "ses_e");
    close();
  });

  it("a purge through the feeding store is a removal at once; an archive or a rename a new summary", async () => {
    const feed = new SessionFeed(store, { coalesceMs: 5, rescanMs: HOUR });
    const writer = feedingStore(store, feed);
    await writer.createSession(record("ses_f"));
    await writer.createSession(record("ses_g"));
    const f = listener();
    const { close } = await feed.subscribe(f.hear);
    await writer.updateSession("ses_f", { title: "renamed", archived: true });
    await f.until((m) => m.kind === "session" && m.session.id === "ses_f" && m.session.archived === true);
    await writer.purgeSession?.("ses_g");
    // no rescan runs within the hour: the purge itself said so
    await f.until((m) => m.kind === "removed" && m.id === "ses_g");
    expect(
      f.heard.filter((m) => m.kind === "removed").map((m) => (m.kind === "removed" ? m.id : "")),
    ).toEqual(["ses_g"]);
    close();
  });
});
