import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { MockModelServer } from "../../../src/mock-model/index.js";
import { CLI } from "../../cli/support/cli-process.js";
import type { ServeProcess } from "./serve-process.js";

/** Turns over HTTP and what they left: a session's stored events, the model requests of a turn, `verify`. */

export interface StoredEvent {
  sequence: number;
  type: string;
  sessionId: string;
  turnId?: string;
  payload: Record<string, unknown>;
}

export async function storedEvents(server: ServeProcess, id: string): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for (let after = 0; ; ) {
    const { body } = await server.json<{ events: StoredEvent[]; next: number }>(
      `/v1/sessions/${id}/events?after=${after}&limit=1000`,
    );
    if (body.events.length === 0) return events;
    events.push(...body.events);
    after = body.next;
  }
}

/** Waits (polling the stored stream) until `count` turns of the session have ended and it is ready again. */
export async function turnsEnded(server: ServeProcess, id: string, count: number): Promise<StoredEvent[]> {
  for (let waited = 0; waited < 120_000; waited += 200) {
    const events = await storedEvents(server, id);
    const ends = events.filter((e) => e.type === "turn.completed" || e.type === "turn.aborted");
    const lastEnd = ends.at(-1)?.sequence ?? 0;
    const ready = events.some(
      (e) => e.type === "session.state.changed" && e.sequence > lastEnd && e.payload.state === "ready",
    );
    if (ends.length >= count && ready) return events;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`session ${id}: ${count} turns did not end\n${server.stderr}`);
}

export async function sendTurn(server: ServeProcess, id: string, text: string): Promise<void> {
  const response = await server.fetch(`/v1/sessions/${id}/turns`, { method: "POST", json: { text } });
  expect([text, response.status]).toEqual([text, 202]);
}

/** The model requests (their bodies as JSON text) that carry `word`: the requests of the turn that sent it. */
export function requestsWith(mock: MockModelServer, word: string): string[] {
  return mock.requests.map((r) => JSON.stringify(r.body ?? "")).filter((body) => body.includes(word));
}

/** `verify` over the events (written to a file in the server's data dir) finds no violation. */
export function verifies(server: ServeProcess, events: StoredEvent[], name: string): void {
  const file = join(server.data, `${name}.jsonl`);
  writeFileSync(file, `${events.map((e) => JSON.stringify(e)).join("\n")}\n`);
  const verify = spawnSync(process.execPath, [CLI, "verify", file], { encoding: "utf8" });
  expect(verify.stdout + verify.stderr).toMatch(/^\d+ events, 0 violations\n$/);
}
