import type { SessionFeed, SessionFeedMessage } from "./session-feed.js";

/** Messages a client may fall behind by before it is dropped (it reconnects and gets a fresh snapshot). */
const MAX_QUEUED = 1_000;

function message(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * `GET /v1/sessions` as SSE: `event: snapshot` with `{sessions}` first, then `event: session` with a session's
 * new summary whenever it changes (state, title, open requests, last sequence) and `event: removed` with `{id}`,
 * with a heartbeat comment every `heartbeatMs`.
 */
export function streamSessionList(feed: SessionFeed, heartbeatMs: number): Response {
  let close = () => {};
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let cancelled = false;
  const end = () => {
    cancelled = true;
    clearInterval(heartbeat);
    close();
  };
  const body = new ReadableStream<string>(
    {
      async start(controller) {
        let ended = false;
        const send = (text: string) => {
          if (ended) return;
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED) {
            ended = true;
            end();
            controller.close();
            return;
          }
          controller.enqueue(text);
        };
        controller.enqueue(": connected\n\n");
        heartbeat = setInterval(() => send(": heartbeat\n\n"), heartbeatMs);
        // changes heard while the snapshot is read go out after it
        let early: string[] | undefined = [];
        const onChange = (change: SessionFeedMessage) => {
          const text =
            change.kind === "session"
              ? message("session", change.session)
              : message("removed", { id: change.id });
          if (early === undefined) send(text);
          else early.push(text);
        };
        try {
          const subscription = await feed.subscribe(onChange);
          close = subscription.close;
          if (cancelled) return close();
          send(message("snapshot", { sessions: subscription.sessions }));
          for (const text of early) send(text);
          early = undefined;
        } catch (error) {
          ended = true;
          clearInterval(heartbeat);
          controller.error(error);
        }
      },
      cancel: end,
    },
    { highWaterMark: 1 },
  );
  // @hono/node-server writes a chunk with `response.write(chunk)`, which takes strings
  return new Response(body as unknown as ReadableStream<Uint8Array>, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" },
  });
}
