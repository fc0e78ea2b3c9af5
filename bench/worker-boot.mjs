// A worker thread's entry for the bench: registers tsx in this thread, then loads the TypeScript entry it is given.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
