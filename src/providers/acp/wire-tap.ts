import { Readable, Writable } from "node:stream";
import type { AgentProcess } from "./agent-process.js";

/** What the tap reports: every message in and out, and stdout lines that are not JSON. */
export interface WireTapHandlers {
  /** Returns a promise when the host is behind: the agent's output is not read until it resolves. */
  inbound(message: unknown): Promise<void> | undefined;
  outbound(message: unknown): void;
  garbage(line: string): void;
}

type Sdk = typeof import("@agentclientprotocol/sdk/unstable");
type AcpStream = ReturnType<Sdk["ndJsonStream"]>;

/**
 * The agent's stdio as an ACP stream (the SDK does the framing), tapped so the driver sees every message in both
 * directions before the SDK acts on it: the mapper has opened a request before its handler asks for its id.
 */
export function tappedAgentStream(sdk: Sdk, agent: AgentProcess, handlers: WireTapHandlers): AcpStream {
  const { stdin, stdout } = agent.child;
  if (stdin === null || stdout === null) throw new Error("agent process has no stdio pipes");
  const output = Writable.toWeb(stdin) as WritableStream<Uint8Array>;
  const input = (Readable.toWeb(stdout) as ReadableStream<Uint8Array>).pipeThrough(
    garbageTap(handlers.garbage),
  );
  const inner = sdk.ndJsonStream(output, input);
  const readable = inner.readable.pipeThrough(
    new TransformStream({
      async transform(message, controller) {
        const paused = handlers.inbound(message);
        if (paused !== undefined) await paused;
        controller.enqueue(message);
      },
    }),
  );
  const writer = inner.writable.getWriter();
  const writable = new WritableStream({
    write(message) {
      handlers.outbound(message);
      return writer.write(message);
    },
    close() {
      return writer.close();
    },
    abort(reason) {
      return writer.abort(reason);
    },
  });
  return { readable, writable } as AcpStream;
}

/** Longer lines are not re-checked (the SDK still parses them); bounds what the tap holds. */
const MAX_CHECKED_LINE = 8 * 1024 * 1024;

/**
 * Passes the agent's stdout bytes through unchanged, reporting lines that are not JSON — garbage, or a message cut
 * mid-line: the SDK drops those with a console message and would not tell us, so the tap parses each line too.
 */
function garbageTap(report: (line: string) => void): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let line = "";
  let tooLong = false;
  const feed = (segment: string) => {
    if (tooLong) return;
    line += segment;
    if (line.length > MAX_CHECKED_LINE) {
      tooLong = true;
      line = "";
    }
  };
  const endLine = () => {
    const text = line.trim();
    line = "";
    if (tooLong || text.length === 0) {
      tooLong = false;
      return;
    }
    try {
      JSON.parse(text);
    } catch {
      report(text.slice(0, 2_000));
    }
  };
  const scan = (text: string) => {
    let start = 0;
    while (true) {
      const newline = text.indexOf("\n", start);
      feed(newline === -1 ? text.slice(start) : text.slice(start, newline));
      if (newline === -1) return;
      endLine();
      start = newline + 1;
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      scan(decoder.decode(chunk, { stream: true }));
      controller.enqueue(chunk);
    },
    flush() {
      scan(decoder.decode());
      endLine();
    },
  });
}
