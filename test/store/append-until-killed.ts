// A child for crash.test.ts: appends to a store as fast as it can and prints each sequence once its append
// has resolved, until the parent kills it.
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { deltaEvents, runningRecord } from "./store-fixture.js";

const [dataDir] = process.argv.slice(2);
if (dataDir === undefined) throw new Error("usage: append-until-killed DATA_DIR");
const store = await openSqliteStore({ dataDir });
await store.createSession(runningRecord("ses_crash"));
let next = 1;
for (;;) {
  // several appends in flight at once, so batches of different sizes commit
  const size = 1 + (next % 5);
  const batch = [store.append("ses_crash", deltaEvents("ses_crash", next, size))];
  batch.push(store.append("ses_crash", deltaEvents("ses_crash", next + size, 2)));
  await Promise.all(batch);
  next += size + 2;
  process.stdout.write(`acked ${next - 1}\n`);
}
