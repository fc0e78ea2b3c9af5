import { describe, expect, it } from "vitest";
import { EnvelopeWriter } from "../../src/kit/envelope-writer.js";
import { EventBuilder, raw } from "../../src/kit/event-builder.js";

/** JSON.stringify of the event up to `raw`: what `head` must write. */
function expectedHead(event: object): string {
  const { raw: _raw, ...rest } = event as Record<string, unknown>;
  return JSON.stringify(rest).slice(0, -1);
}

describe("EnvelopeWriter", () => {
  it("writes builder events byte-identically to JSON.stringify while ids, refs and time change and repeat", () => {
    let now = 0;
    const builder = new EventBuilder({
      sessionId: 'ses "quoted" \u2028',
      provider: "codex",
      clock: () => `2026-11-30T00:00:0${now % 3}.000Z`,
    });
    const writer = new EnvelopeWriter();
    const sharedRefs = { providerThreadId: "t\\1" };
    const record = raw("codex.app-server.notification", { method: "x" }, "x");
    for (let index = 0; index < 40; index++) {
      now = Math.floor(index / 4);
      const event = builder.emit(
        index % 5 === 0 ? "content.delta" : "item.updated",
        index % 5 === 0
          ? { streamKind: "assistant_text", delta: `d\n${index}` }
          : { itemType: "command_execution", status: "inProgress" },
        {
          threadId: `thr_${index % 2}`,
          turnId: index % 3 === 0 ? undefined : `turn_${Math.floor(index / 7)}`,
          itemId: index % 4 === 0 ? undefined : `item_"${index % 6}"`,
          requestId: index % 9 === 0 ? "req_1" : undefined,
          parentItemId: index % 11 === 0 ? "item_parent" : undefined,
          // a shared refs object, a fresh equal one, and a fresh different one
          providerRefs:
            index % 3 === 0
              ? sharedRefs
              : index % 3 === 1
                ? { providerThreadId: "t\\1" }
                : { providerItemId: `${index}` },
          raw: index % 8 === 0 ? undefined : record,
        },
      );
      const hasRaw = (event as { raw?: unknown }).raw !== undefined;
      expect(writer.head(event, hasRaw)).toBe(expectedHead(event));
    }
  });

  it("declines every event that is not shaped as the builder builds it", () => {
    const writer = new EnvelopeWriter();
    const builder = new EventBuilder({
      sessionId: "s",
      provider: "acp",
      clock: () => "2026-11-30T00:00:00.000Z",
    });
    const good = () =>
      builder.emit(
        "turn.started",
        {},
        { threadId: "thr", providerRefs: { providerSessionId: "n" } },
      ) as unknown as Record<string, unknown>;
    const first = good();
    expect(writer.head(first, false)).toBe(expectedHead(first));
    const variants: Array<[string, (event: Record<string, unknown>) => object, boolean?]> = [
      ["keys in another order", ({ eventId, ...rest }) => ({ ...rest, eventId })],
      ["an extra key", (event) => ({ ...event, extra: 1 })],
      ["an own key left undefined", (event) => ({ ...event, turnId: undefined })],
      ["a numeric id", (event) => ({ ...event, threadId: 7 })],
      ["a non-finite sequence", (event) => ({ ...event, sequence: Number.NaN })],
      [
        "a refs value that is not a string",
        (event) => ({ ...event, providerRefs: { providerSessionId: 1 } }),
      ],
      ["refs with toJSON", (event) => ({ ...event, providerRefs: { toJSON: () => "x" } })],
      ["a payload with toJSON", (event) => ({ ...event, payload: { toJSON: () => "x" } })],
      ["a payload that is an array", (event) => ({ ...event, payload: [] })],
      ["no payload", ({ payload: _payload, ...rest }) => rest],
      ["a toJSON on the event", (event) => ({ ...event, toJSON: () => ({}) })],
      ["a class instance", (event) => Object.assign(new (class Event {})(), event)],
      ["raw announced but absent", (event) => event, true],
      ["raw not announced but present", (event) => ({ ...event, raw: { source: "x", payload: {} } })],
      ["raw not the last key", (event) => ({ raw: { source: "x", payload: {} }, ...event }), true],
    ];
    for (const [name, change, hasRaw] of variants) {
      expect(writer.head(change(good()), hasRaw === true), name).toBeUndefined();
    }
    // a declined event leaves no stale state: the next good one is still written exactly
    const last = good();
    expect(writer.head(last, false)).toBe(expectedHead(last));
  });
});
