import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { LocalSessions, type LocalSessionsOptions } from "../server/local-sessions.js";
import { SessionPaths } from "../server/session-paths.js";
import { JetStreamStore } from "../store/jetstream-store.js";
import { ClusterSessions } from "./cluster-sessions.js";
import { isNodeId } from "./command-messages.js";
import { OwnerStampingStore } from "./owner-stamping-store.js";

export interface ClusterNodeOptions {
  /** `--nats`: the NATS server URL(s). */
  servers: string | string[];
  /** `--nats-stream`: the deployment's stream (default PROVIDER_RUNTIME). */
  stream?: string;
  /** `--node`: this node's id (default `<host>-<pid>-<random>`: a restarted process is a new node). */
  node?: string;
  /** `--lease-ms`: how long a node holds its sessions without renewing (default 15 s). */
  leaseMs?: number;
  dataDir: string;
  root?: string;
  modelBaseUrl?: LocalSessionsOptions["modelBaseUrl"];
  driverDefaults?: LocalSessionsOptions["driverDefaults"];
  warn?: (message: string) => void;
}

export interface ClusterNode {
  store: JetStreamStore;
  commands: ClusterSessions;
}

export const DEFAULT_LEASE_MS = 15_000;

export function defaultNodeId(): string {
  const host =
    hostname()
      .replace(/[^A-Za-z0-9_-]/g, "-")
      .slice(0, 40) || "node";
  return `${host}-${process.pid}-${randomBytes(3).toString("hex")}`;
}

/** One `serve --nats` node: the JetStream store and the commands that route to whichever node runs a session. */
export async function startClusterNode(options: ClusterNodeOptions): Promise<ClusterNode> {
  const node = options.node ?? defaultNodeId();
  if (!isNodeId(node)) throw new Error(`--node ${node}: use letters, digits, - and _ (at most 100)`);
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const store = await JetStreamStore.open({
    servers: options.servers,
    ...(options.stream === undefined ? {} : { stream: options.stream }),
    connectionName: `provider-runtime ${node}`,
  });
  const warn = options.warn ?? (() => undefined);
  let commands: ClusterSessions | undefined;
  const local = new LocalSessions({
    store: new OwnerStampingStore(store, (record) => commands?.stamp(record) ?? record),
    paths: new SessionPaths(options.dataDir, options.root),
    warn,
    ...(options.modelBaseUrl === undefined ? {} : { modelBaseUrl: options.modelBaseUrl }),
    ...(options.driverDefaults === undefined ? {} : { driverDefaults: options.driverDefaults }),
  });
  commands = new ClusterSessions({ store, local, node, leaseMs, warn });
  return { store, commands };
}
