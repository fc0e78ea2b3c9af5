import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { freePort, type NatsServer, startNatsServer } from "./nats-server.js";

/** Three nats-servers in one JetStream cluster, routes on loopback, each with `authorization` as given. */
export interface NatsCluster {
  servers: NatsServer[];
  /** Every server's client URL, comma-separated (for `--nats`). */
  urls: string;
  /** The name (`n1`..`n3`) of the server that leads a stream's replicas now. */
  leaderOf(stream: string, auth: { user: string; pass: string }): Promise<string | undefined>;
  dispose(): Promise<void>;
}

export async function startNatsCluster(authorization: string, size = 3): Promise<NatsCluster> {
  const ports = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routePorts = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routes = routePorts.map((port) => `"nats-route://127.0.0.1:${port}"`).join(", ");
  const servers = await Promise.all(
    ports.map((port, index) =>
      startNatsServer({
        port,
        config: (_, storeDir) => `server_name: "n${index + 1}"
listen: "127.0.0.1:${port}"
jetstream { store_dir: "${storeDir}" }
cluster { name: "provider-runtime-test", listen: "127.0.0.1:${routePorts[index]}", routes: [${routes}] }
${authorization}`,
      }),
    ),
  );
  const urls = servers.map((server) => server.url).join(",");
  return {
    servers,
    urls,
    async leaderOf(stream, auth) {
      const nc = await connect({ servers: urls.split(","), ...auth });
      try {
        const jsm = await jetstreamManager(nc);
        return (await jsm.streams.info(stream)).cluster?.leader;
      } finally {
        await nc.close();
      }
    },
    async dispose() {
      await Promise.all(servers.map((server) => server.dispose()));
    },
  };
}

/** Waits until the cluster's JetStream answers (a meta leader is elected), as a node's first request needs. */
export async function untilJetStreamReady(urls: string, auth: { user: string; pass: string }): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const nc = await connect({ servers: urls.split(","), ...auth });
    try {
      const jsm = await jetstreamManager(nc, { timeout: 2_000 });
      await jsm.getAccountInfo();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    } finally {
      await nc.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
