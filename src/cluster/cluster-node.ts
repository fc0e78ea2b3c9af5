import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { LocalSessions, type LocalSessionsOptions } from "../server/local-sessions.js";
import { SessionPaths } from "../server/session-paths.js";
import type { MessageAuth } from "../store/jetstream/message-auth.js";
import type { NatsCredentials } from "../store/jetstream/nats-credentials.js";
import { JetStreamStore } from "../store/jetstream-store.js";
import { ClusterSessions } from "./cluster-sessions.js";
import { isNodeId } from "./command-messages.js";
import { CommandSeal } from "./command-seal.js";
import { NativeStateStore } from "./native-state-store.js";
import { OwnerStampingStore } from "./owner-stamping-store.js";

export interface ClusterNodeOptions {
  /** `--nats`: the NATS server URL(s), without credentials (parseNatsServers). */
  servers: string | string[];
  /** From the URL or the environment, `--nats-creds`, `--nats-tls-*`. */
  credentials?: NatsCredentials;
  /** `--cluster-secret-file`: tags every command, event message and registry record. */
  auth: MessageAuth;
  /** `--nats-replicas`: of the stream, the registry and the native state bucket, when this node creates them. */
  replicas?: number;
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
  knownAgentsOnly?: boolean;
  warn?: (message: string) => void;
}

export interface ClusterNode {
  store: JetStreamStore;
  commands: ClusterSessions;
}

export const DEFAULT_LEASE_MS = 15_000;
/** Events after which a session's native state is saved: its agent has written what the turn left. */
const SAVE_AFTER = new Set(["turn.completed", "turn.aborted", "session.exited"]);

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
  const warn = options.warn ?? (() => undefined);
  let commands: ClusterSessions | undefined;
  const store = await JetStreamStore.open({
    servers: options.servers,
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    ...(options.stream === undefined ? {} : { stream: options.stream }),
    ...(options.replicas === undefined ? {} : { replicas: options.replicas }),
    auth: options.auth,
    onForged: (report) => commands?.reportForged(report),
    connectionName: `provider-runtime ${node}`,
  });
  try {
    const nativeState = await NativeStateStore.open(
      store.link,
      `${store.stream}_native`,
      options.replicas ?? 1,
      options.auth,
      warn,
    );
    const paths = new SessionPaths(options.dataDir, options.root);
    const local = new LocalSessions({
      store: new OwnerStampingStore(
        store,
        (record) => commands?.stamp(record) ?? record,
        (sessionId, events) => {
          if (events.some((event) => SAVE_AFTER.has(event.type))) commands?.saveNativeState(sessionId);
        },
      ),
      paths,
      warn,
      ...(options.modelBaseUrl === undefined ? {} : { modelBaseUrl: options.modelBaseUrl }),
      ...(options.driverDefaults === undefined ? {} : { driverDefaults: options.driverDefaults }),
      ...(options.knownAgentsOnly === true ? { knownAgentsOnly: true } : {}),
    });
    commands = new ClusterSessions({
      store,
      local,
      node,
      leaseMs,
      warn,
      seal: new CommandSeal(options.auth),
      paths,
      nativeState,
    });
    return { store, commands };
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}
