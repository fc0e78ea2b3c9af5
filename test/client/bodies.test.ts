import { describe, expect, it } from "vitest";
import { ErrorBody, EVENTS_PAGE_LIMIT, Health, SessionList, SessionSummary } from "../../src/api/schemas.js";
import {
  errorBodyOf,
  healthOf,
  PAGE_LIMIT,
  sessionListOf,
  sessionSummaryOf,
} from "../../src/client/bodies.js";

// The client checks bodies by hand (zod stays out of its bundle): its checks agree with the server's schemas.

const summary = {
  id: "ses_1",
  provider: "claude",
  origin: "live",
  state: "ready",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:01.000Z",
  lastSequence: 12,
  openRequests: 1,
  title: "fix it",
  exited: false,
};

describe("the client's body checks", () => {
  it("the page limit is the API's", () => {
    expect(PAGE_LIMIT).toBe(EVENTS_PAGE_LIMIT);
  });

  it("accept what the schemas accept", () => {
    expect(SessionSummary.parse(summary)).toEqual(summary);
    expect(sessionSummaryOf(summary)).toEqual(summary);
    expect(sessionListOf(SessionList.parse({ sessions: [summary] }))).toEqual([summary]);
    expect(healthOf(Health.parse({ ok: true, version: "0.1.0" }))).toEqual({ ok: true, version: "0.1.0" });
    const error = ErrorBody.parse({ error: "bad", field: "cwd" });
    expect(errorBodyOf(error)).toEqual(error);
  });

  it.each([
    ["a negative sequence", { ...summary, lastSequence: -1 }],
    ["no id", { ...summary, id: undefined }],
    ["a numeric title", { ...summary, title: 3 }],
    ["an array", [summary]],
  ])("refuse what the schemas refuse: %s", (_label, body) => {
    expect(SessionSummary.safeParse(body).success).toBe(false);
    expect(sessionSummaryOf(body)).toBeUndefined();
  });

  it("a list with one bad session is refused whole", () => {
    expect(sessionListOf({ sessions: [summary, { id: 1 }] })).toBeUndefined();
    expect(errorBodyOf({ error: 1 })).toBeUndefined();
    expect(healthOf({ ok: "yes", version: "1" })).toBeUndefined();
  });
});
