import { describe, expect, it } from "vitest";
import {
  EventAssembler,
  encodeEvent,
  HEADER_EVENT_ID,
  HEADER_FIRST,
  HEADER_LAST,
  HEADER_PART,
  nextMessage,
  type OutgoingMessage,
} from "../../src/store/jetstream/event-codec.js";
import { range, sequencesOf, sessionEvent } from "./support/events.js";

/** The headers a SessionWriter puts on a message, as a reader gets them. */
function headersOf(message: OutgoingMessage): { get(key: string): string } {
  const values = new Map<string, string>([
    [HEADER_FIRST, String(message.first)],
    [HEADER_EVENT_ID, message.eventId],
  ]);
  if (message.last !== message.first) values.set(HEADER_LAST, String(message.last));
  if (message.parts > 1) values.set(HEADER_PART, `${message.part}/${message.parts}`);
  return { get: (key) => values.get(key) ?? "" };
}

describe("the stream's message layout", () => {
  it("puts a run of events in one message, up to the body limit, and gives them back as appended", () => {
    const events = range(1, 40).map((n) => sessionEvent("ses_codec", n));
    const encoded = events.map(encodeEvent);
    const limit = encoded[0]?.json.length ? encoded[0].json.length * 10 + 20 : 0;
    const first = nextMessage(encoded, limit);
    expect(first).toMatchObject({ first: 1, last: 10, completes: 10, msgId: `${events[0]?.eventId}+10` });
    const back = new EventAssembler().push(headersOf(first), first.data);
    expect(back.map((event) => JSON.stringify(event))).toEqual(
      events.slice(0, 10).map((e) => JSON.stringify(e)),
    );
    expect(nextMessage(encoded.slice(39), limit)).toMatchObject({ msgId: events[39]?.eventId, completes: 1 });
  });

  it("splits an event larger than a message and drops a half-written one that another event follows", () => {
    const big = encodeEvent(sessionEvent("ses_codec", 5, "x".repeat(5_000)));
    const other = encodeEvent(sessionEvent("ses_codec", 5, "written by the node that took over"));
    const limit = Math.ceil(big.json.length / 3);
    const parts = [1, 2, 3].map((part) => nextMessage([big], limit, part));
    expect(parts.map((part) => [part.part, part.parts, part.completes, part.msgId])).toEqual([
      [1, 3, 0, `${big.eventId}#1`],
      [2, 3, 0, `${big.eventId}#2`],
      [3, 3, 1, `${big.eventId}#3`],
    ]);
    const assembler = new EventAssembler();
    // The first node died after part 2; the session went on elsewhere with another event 5, then 6.
    expect(
      assembler.push(headersOf(parts[0] as OutgoingMessage), (parts[0] as OutgoingMessage).data),
    ).toEqual([]);
    expect(
      assembler.push(headersOf(parts[1] as OutgoingMessage), (parts[1] as OutgoingMessage).data),
    ).toEqual([]);
    const next = nextMessage([other, encodeEvent(sessionEvent("ses_codec", 6))], 100_000);
    expect(sequencesOf(assembler.push(headersOf(next), next.data))).toEqual([5, 6]);
    // Whole, in order, the parts make the event.
    const whole = new EventAssembler();
    const got = parts.flatMap((part) => whole.push(headersOf(part), part.data));
    expect(got.map((event) => JSON.stringify(event))).toEqual([new TextDecoder().decode(big.json)]);
    // A part out of place (3 without 2) yields nothing.
    const skipping = new EventAssembler();
    skipping.push(headersOf(parts[0] as OutgoingMessage), (parts[0] as OutgoingMessage).data);
    expect(skipping.push(headersOf(parts[2] as OutgoingMessage), (parts[2] as OutgoingMessage).data)).toEqual(
      [],
    );
  });

  it("yields nothing for a message that is not ours", () => {
    const assembler = new EventAssembler();
    expect(assembler.push(undefined, new TextEncoder().encode("{}"))).toEqual([]);
    expect(
      assembler.push({ get: (key) => (key === HEADER_FIRST ? "1" : "") }, new Uint8Array([0xff, 0x7b])),
    ).toEqual([]);
  });
});
