import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { CliProcess } from "../cli/support/cli-process.js";
import { ClusterNodes } from "./support/cluster-nodes.js";
import { type ClusterAccounts, makeClusterAccounts } from "./support/nats-accounts.js";
import { type NatsServer, startNatsServer } from "./support/nats-server.js";
import { makeTestCerts, type TestCerts } from "./support/test-certs.js";

// A nats-server that takes TLS only and asks every client for a certificate signed by its CA (certificates made now
// with openssl), with the docs' users on top: a node given the CA, its certificate and key serves a session; one
// without a client certificate does not start.
const work = mkdtempSync(join(tmpdir(), "cluster-tls-"));
let certs: TestCerts;
let accounts: ClusterAccounts;
let nats: NatsServer;
let cluster: ClusterNodes;

beforeAll(async () => {
  certs = makeTestCerts(work);
  accounts = makeClusterAccounts(work);
  nats = await startNatsServer({
    scheme: "tls",
    config: (port, storeDir) => `listen: "127.0.0.1:${port}"
jetstream { store_dir: "${storeDir}" }
tls { cert_file: "${certs.serverCert}", key_file: "${certs.serverKey}", ca_file: "${certs.ca}", verify: true }
${accounts.authorization}`,
  });
  cluster = new ClusterNodes(nats.url, 3_000, {
    env: { NATS_USER: "node", NATS_PASSWORD: accounts.nodePassword },
  });
}, 120_000);

afterAll(async () => {
  const left = await cluster?.dispose();
  await nats?.dispose();
  rmSync(work, { recursive: true, force: true });
  expect(left ?? []).toEqual([]);
}, 120_000);

type Event = RuntimeEvent;

it("serves a session over NATS with TLS and a client certificate", async () => {
  const tls = ["--nats-tls-ca", certs.ca];
  // Without a client certificate the server refuses the node: it says so and exits.
  const refused = new CliProcess(
    [
      "serve",
      "--port",
      "0",
      "--data",
      join(work, "nocert"),
      "--nats",
      nats.url,
      "--cluster-secret-file",
      cluster.secretFile,
      ...tls,
    ],
    { env: { NATS_USER: "node", NATS_PASSWORD: accounts.nodePassword } },
  );
  try {
    expect(await refused.exited).toBe(1);
    expect(refused.stderr).toContain(`could not connect to NATS at ${nats.url}`);
    expect(refused.stderr).not.toContain(accounts.nodePassword);
  } finally {
    rmSync(refused.tmp, { recursive: true, force: true });
  }

  await cluster.start("a", [...tls, "--nats-tls-cert", certs.clientCert, "--nats-tls-key", certs.clientKey]);
  const created = await cluster.post("a", "/v1/sessions", { provider: "codex" });
  expect(created.status).toBe(201);
  const id = String(created.body.id);
  const watcher = cluster.watch("a", id);
  expect((await cluster.post("a", `/v1/sessions/${id}/turns`, { text: "mock:text over TLS" })).status).toBe(
    202,
  );
  await watcher.until((r) => r.events<Event>().some((e) => e.type === "turn.completed"));
  expect((await cluster.node("a").json("/v1/health", { auth: null })).body).toMatchObject({
    ok: true,
    store: { backend: "jetstream", connected: true },
  });
}, 180_000);
