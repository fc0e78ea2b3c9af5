// A child of the bench's hop floor (bench/hop-floor.ts), plain JavaScript so that it starts without a loader:
//   receive      listens on loopback, prints its port, then for every stamp it is sent the milliseconds since
//   send PORT    connects and sends its monotonic clock (process.hrtime, the same clock in every process) every 10 ms
// Both end when stdin closes: neither outlives the bench.
import { connect, createServer } from "node:net";

const INTERVAL_MS = 10;
const now = () => process.hrtime.bigint();

function receive() {
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    let pending = "";
    socket.setEncoding("utf8").on("data", (text) => {
      const at = now();
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) process.stdout.write(`${Number(at - BigInt(line)) / 1e6}\n`);
    });
  });
  server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
}

function send(port) {
  const socket = connect(port, "127.0.0.1", () => {
    socket.setNoDelay(true);
    setInterval(() => socket.write(`${now()}\n`), INTERVAL_MS);
  });
  socket.on("error", () => process.exit(1));
}

process.stdin.resume().on("end", () => process.exit(0));
const [role, port] = process.argv.slice(2);
if (role === "receive") receive();
else if (role === "send" && port !== undefined) send(Number(port));
else throw new Error(`hop probe: receive | send PORT, not ${process.argv.slice(2).join(" ")}`);
