// One worker thread of the bench's subscribers (bench/subscribers.ts): its share of the sessions, followed here.
import { parentPort, workerData } from "node:worker_threads";
import { Followers } from "./followers.js";
import type { FromWorker, ToWorker } from "./subscribers.js";

const port = parentPort;
if (port === null) throw new Error("bench/subscriber-worker.ts runs as a worker thread");
const { connection, ids, perSession } = workerData as {
  connection: { baseUrl: string; token: string };
  ids: string[];
  perSession: number;
};
const send = (message: FromWorker) => port.postMessage(message);
const followers = new Followers(connection, ids, perSession, (id) => send({ type: "turnEnd", id }));
void followers.done.then(() => send({ type: "done" }));
port.on("message", (message: ToWorker) => {
  if (message.type === "measureFrom") followers.measureFrom(message.at);
  else if (message.type === "measureUntil") followers.measureUntil(message.at);
  else
    send({
      type: "answer",
      request: message.request,
      value: message.what === "state" ? followers.state() : followers.latency(),
    });
});
