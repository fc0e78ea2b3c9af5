import { expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { EventWriter } from "../../src/server/event-writer.js";
import { deltaEvents } from "../store/store-fixture.js";

const events = deltaEvents("ses_writer", 1, 6);
const at = (index: number) => events[index] as RuntimeEvent;
const sequences = (batches: RuntimeEvent[][]) => batches.map((batch) => batch.map((e) => e.sequence));

it("events pushed a microtask apart (one native record's events, as a driver yields them) are one write", async () => {
  const writes: RuntimeEvent[][] = [];
  const writer = new EventWriter(async (batch) => {
    writes.push(batch);
  });
  writer.push(at(0));
  await Promise.resolve();
  writer.push(at(1));
  await Promise.resolve();
  writer.push(at(2));
  await writer.idle();
  expect(sequences(writes)).toEqual([[1, 2, 3]]);
});

it("what arrives while a write is under way is the next write, in order; idle waits for both", async () => {
  const writes: RuntimeEvent[][] = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const writer = new EventWriter(async (batch) => {
    writes.push(batch);
    if (writes.length === 1) await held;
  });
  writer.push(at(0));
  writer.push(at(1));
  await new Promise((resolve) => setImmediate(resolve));
  writer.push(at(2));
  writer.push(at(3));
  expect(writer.backlog).toBe(2);
  const idle = writer.idle();
  release();
  await idle;
  expect(sequences(writes)).toEqual([
    [1, 2],
    [3, 4],
  ]);
});

it("a failed write fails idle and every later push", async () => {
  const writer = new EventWriter(async () => {
    throw new Error("disk full");
  });
  writer.push(at(0));
  await expect(writer.idle()).rejects.toThrow("disk full");
  expect(() => writer.push(at(1))).toThrow("disk full");
});
