import { afterEach, describe, expect, it } from "vitest";
import {
  RemoteApiError,
  RemoteClient,
  RemoteConnectionError,
  RemoteProtocolError,
} from "../../src/client/index.js";
import type { RuntimeEventType } from "../../src/contracts/event-types.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { sampleEvent } from "../support/sample-events.js";
import {
  type ScriptedServer,
  type StreamConnection,
  startScriptedServer,
} from "./support/scripted-server.js";

// The SSE follower's edge cases against a scripted server (test/client/support). The same client against the
// real `serve` is in test/client/real-server.test.ts and the remote conformance suite.

const SESSION = "ses_remote";
const ev = (sequence: number, type: RuntimeEventType = "content.delta"): RuntimeEvent =>
  sampleEvent(type, sequence, { sessionId: SESSION as RuntimeEvent["sessionId"] });
/** 1..n-1 deltas, n the exit. */
const stream = (n: number): RuntimeEvent[] =>
  Array.from({ length: n }, (_, i) => ev(i + 1, i + 1 === n ? "session.exited" : "content.delta"));
const FAST = { reconnect: { initialDelayMs: 10, maxDelayMs: 50, maxAttempts: 5 } };

let servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(onStream: (c: StreamConnection, server: ScriptedServer) => void, port?: number) {
  let self: ScriptedServer | undefined;
  const server = await startScriptedServer({
    onStream: (c) => onStream(c, self as ScriptedServer),
    ...(port === undefined ? {} : { port }),
  });
  self = server;
  servers.push(server);
  return server;
}

const clientOf = (server: ScriptedServer) =>
  new RemoteClient({ baseUrl: `${server.baseUrl}/`, token: "tok" });

async function collect(iterable: AsyncIterable<RuntimeEvent>): Promise<number[]> {
  const sequences: number[] = [];
  for await (const event of iterable) sequences.push(event.sequence);
  return sequences;
}

describe("RemoteClient.follow", () => {
  it("delivers the stored events, then live ones, and ends at a session.exited with nothing stored after it", async () => {
    const events = stream(6);
    const server = await serve((c, s) => {
      for (const e of events.slice(0, 3)) c.send(e);
      setTimeout(() => {
        for (const e of events.slice(3)) c.send(e);
        s.stored.push(...events);
      }, 50);
    });
    expect(await collect(clientOf(server).follow(SESSION, FAST))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(server.streams).toHaveLength(1);
    const first = server.requests[0];
    expect(first?.headers.authorization).toBe("Bearer tok");
    expect(first?.path).toBe(`/v1/sessions/${SESSION}/events?after=0`);
    // the exit rule asked for one stored event after the exit
    expect(server.requests.at(-1)?.path).toBe(`/v1/sessions/${SESSION}/events?after=6&limit=1`);
  });

  it("reopens a cut connection with Last-Event-ID and skips the events the server repeats", async () => {
    const events = stream(8);
    const server = await serve((c, s) => {
      if (c.index === 0) {
        for (const e of events.slice(0, 3)) c.send(e);
        setTimeout(() => c.destroy(), 20);
      } else {
        // a server that replays more than asked: from 2 on
        for (const e of events.slice(1)) c.send(e);
        s.stored.push(...events);
      }
    });
    expect(await collect(clientOf(server).follow(SESSION, FAST))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(server.streams.map((c) => [c.after, c.lastEventId])).toEqual([
      [0, undefined],
      [3, "3"],
    ]);
  });

  it("a sequence gap reopens the stream after the last event delivered", async () => {
    const events = stream(5);
    const server = await serve((c, s) => {
      if (c.index === 0) for (const e of [events[0], events[1], events[3]]) c.send(e as RuntimeEvent);
      else {
        for (const e of events.slice(c.after)) c.send(e);
        s.stored.push(...events);
      }
    });
    expect(await collect(clientOf(server).follow(SESSION, FAST))).toEqual([1, 2, 3, 4, 5]);
    expect(server.streams.map((c) => c.lastEventId)).toEqual([undefined, "2"]);
  });

  it("rides out a server restart on the same port: no event lost, none twice", async () => {
    const events = stream(10);
    const first = await serve((c) => {
      for (const e of events.slice(0, 4)) c.send(e);
    });
    const iterator = clientOf(first)
      .follow(SESSION, { reconnect: { initialDelayMs: 50, maxDelayMs: 200, maxAttempts: 20 } })
      [Symbol.asyncIterator]();
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) seen.push(((await iterator.next()).value as RuntimeEvent).sequence);
    const port = first.port;
    await first.close();
    servers = servers.filter((s) => s !== first);
    await new Promise((r) => setTimeout(r, 300));
    const second = await serve((c, s) => {
      s.stored.push(...events);
      for (const e of events.slice(c.after)) c.send(e);
    }, port);
    for (let result = await iterator.next(); !result.done; result = await iterator.next())
      seen.push(result.value.sequence);
    expect(seen).toEqual(events.map((e) => e.sequence));
    expect(second.streams[0]?.lastEventId).toBe("4");
  });

  it("gives up with a RemoteConnectionError after the policy's attempts", async () => {
    const server = await serve((c) => c.destroy());
    const error = await collect(clientOf(server).follow(SESSION, FAST)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteConnectionError);
    expect((error as RemoteConnectionError).attempts).toBe(5);
    expect(server.streams).toHaveLength(5);
  });

  it("a 4xx on the stream is a RemoteApiError at once, never retried", async () => {
    const server = await startScriptedServer({ streamStatus: { status: 401, body: { error: "no token" } } });
    servers.push(server);
    const error = await collect(clientOf(server).follow(SESSION, FAST)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteApiError);
    expect((error as RemoteApiError).status).toBe(401);
    expect((error as RemoteApiError).message).toContain("no token");
    expect(server.requests).toHaveLength(1);
  });

  it("a 503 on the stream is retried", async () => {
    let calls = 0;
    const events = stream(2);
    const server = await startScriptedServer({
      onStream: (c) => {
        for (const e of events) c.send(e);
      },
    });
    servers.push(server);
    const flaky = new RemoteClient({
      baseUrl: server.baseUrl,
      token: "t",
      fetch: async (url, init) => {
        if (calls++ === 0) return new Response(JSON.stringify({ error: "restarting" }), { status: 503 });
        return fetch(url, init);
      },
    });
    expect(await collect(flaky.follow(SESSION, FAST))).toEqual([1, 2]);
    expect(calls).toBeGreaterThanOrEqual(3); // 503, the stream, the exit rule's page
  });

  it.each([
    ["data that is not JSON", "data: {not json\n\n", /not JSON/],
    [
      "an event without a sequence",
      `data: ${JSON.stringify({ type: "x", sessionId: SESSION })}\n\n`,
      /sequence/,
    ],
    [
      "another session's event",
      `data: ${JSON.stringify({ ...ev(1), sessionId: "ses_other" })}\n\n`,
      /another session/,
    ],
    ["an unknown SSE event type", `event: surprise\ndata: {}\n\n`, /event type "surprise"/],
  ])(
    "%s is a RemoteProtocolError with the message's start, not a silent skip",
    async (_label, raw, pattern) => {
      const server = await serve((c) => c.sendRaw(raw));
      const error = await collect(clientOf(server).follow(SESSION, FAST)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RemoteProtocolError);
      expect((error as Error).message).toMatch(pattern);
      expect((error as RemoteProtocolError).text.length).toBeGreaterThan(0);
    },
  );

  it("a message past maxMessageChars breaks the stream with a RemoteProtocolError (bounded buffer)", async () => {
    const server = await serve((c) => {
      c.sendRaw(`data: ${"x".repeat(200_000)}`); // never terminated
    });
    const error = await collect(clientOf(server).follow(SESSION, { ...FAST, maxMessageChars: 10_000 })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RemoteProtocolError);
    expect((error as Error).message).toContain("longer than 10000");
  });

  it("a deeply nested event is parsed in linear time, never a crash", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const event = { ...ev(1), payload: { streamKind: "assistant_text", delta: "d", deep: "placeholder" } };
    const text = JSON.stringify(event).replace('"placeholder"', deep);
    const server = await serve((c, s) => {
      c.sendRaw(`id: 1\ndata: ${text}\n\n`);
      c.send(ev(2, "session.exited"));
      s.stored.push(ev(1), ev(2, "session.exited"));
    });
    expect(await collect(clientOf(server).follow(SESSION, FAST))).toEqual([1, 2]);
  });

  it("a silent connection is reopened after idleTimeoutMs; heartbeats keep a quiet one open", async () => {
    const server = await serve((c, s) => {
      if (c.index === 0) return; // headers, then nothing
      const beat = setInterval(() => c.comment("heartbeat"), 50);
      setTimeout(() => {
        clearInterval(beat);
        s.stored.push(ev(1, "session.exited"));
        c.send(ev(1, "session.exited"));
      }, 2_000); // 2.5 idle timeouts of heartbeats only
    });
    const started = Date.now();
    expect(await collect(clientOf(server).follow(SESSION, { ...FAST, idleTimeoutMs: 800 }))).toEqual([1]);
    expect(server.streams).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_800);
  });

  it("an abort signal ends the iteration and closes the connection", async () => {
    const server = await serve((c) => c.send(ev(1)));
    const controller = new AbortController();
    const seen: number[] = [];
    for await (const event of clientOf(server).follow(SESSION, { ...FAST, signal: controller.signal })) {
      seen.push(event.sequence);
      controller.abort();
    }
    expect(seen).toEqual([1]);
    await server.streams[0]?.closed;
    expect(server.streams).toHaveLength(1);
  });

  it("breaking out of the loop closes the connection", async () => {
    const server = await serve((c) => {
      c.send(ev(1));
      c.send(ev(2));
    });
    for await (const event of clientOf(server).follow(SESSION, FAST)) if (event.sequence === 1) break;
    await server.streams[0]?.closed;
  });

  it("a session.exited followed by stored events (a resumed session) does not end the stream", async () => {
    const events = [ev(1), ev(2, "session.exited"), ev(3, "session.started"), ev(4, "session.exited")];
    const server = await serve((c, s) => {
      s.stored.push(...events);
      for (const e of events) c.send(e);
    });
    expect(await collect(clientOf(server).follow(SESSION, FAST))).toEqual([1, 2, 3, 4]);
  });

  it("untilExit: false follows past the last exit until aborted", async () => {
    const server = await serve((c, s) => {
      s.stored.push(ev(1, "session.exited"));
      c.send(ev(1, "session.exited"));
      setTimeout(() => c.send(ev(2, "session.started")), 50);
    });
    const controller = new AbortController();
    const seen: number[] = [];
    const follow = clientOf(server).follow(SESSION, { ...FAST, untilExit: false, signal: controller.signal });
    for await (const event of follow) {
      seen.push(event.sequence);
      if (event.sequence === 2) controller.abort();
    }
    expect(seen).toEqual([1, 2]);
  });

  it("20,000 events sent in bursts arrive each once, in order", async () => {
    const total = 20_000;
    const server = await serve((c, s) => {
      let next = 1;
      const burst = () => {
        for (let i = 0; i < 1000 && next <= total; i++, next++)
          c.send(ev(next, next === total ? "session.exited" : "content.delta"));
        if (next <= total) setImmediate(burst);
        else s.stored.push(ev(total, "session.exited"));
      };
      burst();
    });
    let count = 0;
    let last = 0;
    for await (const event of clientOf(server).follow(SESSION, FAST)) {
      expect(event.sequence).toBe(last + 1);
      last = event.sequence;
      count++;
    }
    expect(count).toBe(total);
  });
});
