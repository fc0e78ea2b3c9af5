import { afterEach, expect, it } from "vitest";
import { streamEvents } from "../../src/server/event-stream.js";
import { deltaEvents, runningRecord, tempStore } from "../store/store-fixture.js";

/**
 * How the SSE body hands events to the socket: what one commit stores goes out as one chunk (one socket write for
 * every subscriber), and it goes out without waiting for the event loop's next turn.
 */

const ID = "ses_chunks";
let dispose: (() => Promise<void>) | undefined;

afterEach(async () => {
  await dispose?.();
  dispose = undefined;
});

async function openStream() {
  const opened = await tempStore();
  dispose = opened.dispose;
  const { store } = opened;
  await store.createSession(runningRecord(ID));
  const reader = (streamEvents(store, ID, 0, 60_000).body as unknown as ReadableStream<string>).getReader();
  expect((await reader.read()).value).toBe(": connected\n\n");
  return { store, reader };
}

const sequencesOf = (chunk: string | undefined) =>
  [...(chunk ?? "").matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));

it("the events of one commit, two appends of one tick included, reach the body as one chunk", async () => {
  const { store, reader } = await openStream();
  const appended = [store.append(ID, deltaEvents(ID, 1, 30)), store.append(ID, deltaEvents(ID, 31, 20))];
  await Promise.all(appended);
  const { value } = await reader.read();
  expect(sequencesOf(value)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
  await reader.cancel();
});

it("a committed batch is in the body before the event loop's next turn", async () => {
  const { store, reader } = await openStream();
  await store.append(ID, deltaEvents(ID, 1, 5));
  // the commit's waiters run in the tick of the commit; an immediate set now runs in the loop's next turn
  let nextTurn = false;
  setImmediate(() => {
    nextTurn = true;
  });
  const { value } = await reader.read();
  expect(sequencesOf(value)).toEqual([1, 2, 3, 4, 5]);
  expect(nextTurn).toBe(false);
  await reader.cancel();
});
