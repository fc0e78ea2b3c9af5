import { readFileSync } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * At most `max` connections. One over it ends the oldest connection that has no request in flight (one that sent
 * nothing yet, or a keep-alive between requests) rather than the newcomer: a flood of idle sockets evicts its own,
 * and a client that sends its request at once (health, a turn) still gets through. With every connection busy
 * (streams of real clients), the newcomer is the one ended. Without a cap, sockets past the process's file limit
 * left new connections unaccepted, health included.
 */
export function capConnections(server: Server, max: number): void {
  /** Open connections, oldest first (a Set keeps insertion order), with their requests in flight. */
  const open = new Map<Socket, number>();
  server.on("connection", (socket: Socket) => {
    if (open.size >= max) {
      const idle = [...open].find(([, inFlight]) => inFlight === 0)?.[0];
      if (idle === undefined) {
        socket.destroy();
        return;
      }
      idle.destroy();
      open.delete(idle);
    }
    open.set(socket, 0);
    socket.once("close", () => open.delete(socket));
  });
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    const count = open.get(socket);
    if (count === undefined) return;
    open.set(socket, count + 1);
    response.once("close", () => {
      const now = open.get(socket);
      if (now !== undefined) open.set(socket, Math.max(0, now - 1));
    });
  });
}

/** The process's soft limit of open files (Linux's /proc/self/limits), or undefined where it cannot be read. */
function openFilesLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    return line?.[1] === undefined ? undefined : Number(line[1]);
  } catch {
    return undefined;
  }
}

/**
 * `preferred`, or half the process's file limit where that is lower: the store, the agents' pipes and the guards
 * need the other half, and a connection the kernel cannot hand over (EMFILE) waits unanswered.
 */
export function connectionCapFor(preferred: number): number {
  const limit = openFilesLimit();
  return limit === undefined ? preferred : Math.max(8, Math.min(preferred, Math.floor(limit / 2)));
}
