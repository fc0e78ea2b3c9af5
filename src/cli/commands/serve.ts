import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type ClusterNode, startClusterNode } from "../../cluster/cluster-node.js";
import { packageInfo } from "../../server/package-info.js";
import {
  explicitToken,
  isLoopbackHost,
  MIN_REMOTE_TOKEN_CHARS,
  resolveServerToken,
  TokenSourceError,
} from "../../server/server-token.js";
import { type SessionServer, startSessionServer } from "../../server/session-server.js";
import { type DataDirLock, lockDataDir } from "../../store/data-dir-lock.js";
import { readClusterSecret } from "../../store/jetstream/message-auth.js";
import { parseNatsServers, redactUrl } from "../../store/jetstream/nats-credentials.js";
import { openSqliteStore } from "../../store/sqlite-store.js";
import { parseCommandArgs } from "../args.js";
import { SIGNAL_EXIT_CODES, watchStopSignals } from "../session/stop-signals.js";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "../usage.js";
import { ServeMockModels } from "./serve-mock.js";

export const SERVE_HELP = `Usage: provider-runtime serve [options]

The session server: agent sessions over HTTP + Server-Sent Events (see docs/server.md), every event stored in
DATA/store.db before any client sees it.
  --host HOST            the address to bind (default 127.0.0.1); another than loopback needs an explicit
                         token of at least 32 characters
  --port N               the port (default 4317; 0 picks a free one)
  --data DIR             the data dir: store, token, agents' native state (default ~/.provider-runtime)
  --token-file FILE      the bearer token, the file's first line (else $PROVIDER_RUNTIME_TOKEN, else one
                         generated into DATA/token); --token T still works but is deprecated: every local
                         user can read a command line
  --root DIR             every session's cwd must lie inside DIR (also the default cwd)
  --known-agents-only    run no program a host names: an ACP agent only as an installed adapter's name
                         (codex-acp, claude-agent-acp, opencode, copilot), MCP servers only over HTTP (403
                         otherwise). Without it the token lets a host start any program as this user
  --mock                 every session's agent talks to the built-in mock model (offline)
  --model-url URL        every session's agent talks to this model server instead (a provider-runtime
                         mock-model you started, e.g. to read what it received across server restarts)
  --cors ORIGIN          let a browser page of ORIGIN call the API (no CORS headers otherwise)
  --durability D         normal (default): an acknowledged event survives the server being killed, not power
                         loss; full: power loss too, at an fsync per commit (added to every event's latency).
                         DATA/store.db only
  --nats URL[,URL...]    join a cluster over NATS JetStream instead of DATA/store.db (docs/cluster.md); a
                         user and password or a token may be in the URL or in NATS_USER/NATS_PASSWORD or
                         NATS_TOKEN (never printed)
  --cluster-secret-file F  the secret every node of the cluster shares (at least 32 bytes, mode 0600): every
                         command, event and registry record on NATS is tagged with it; needed with --nats
  --nats-creds FILE      a NATS .creds file (user JWT and nkey seed) or a user nkey seed
  --nats-tls-ca FILE     the CA that signed the NATS servers' certificates (TLS)
  --nats-tls-cert FILE   this node's client certificate, with --nats-tls-key FILE its key (TLS)
  --nats-replicas N      replicas of the stream, the registry and the native state when this node creates
                         them (a NATS cluster of three: 3; default 1)
  --nats-stream NAME     the cluster's stream (default PROVIDER_RUNTIME; its registry: the KV bucket NAME_sessions)
  --node ID              this node's id in the cluster (default <host>-<pid>-<random>)
  --lease-ms N           how long a node holds its sessions without renewing its lease (default 15000)
  --agent-nice N         run every agent N lower than the server (Unix nice, 0..19, default 19; 0: the same),
                         so that busy agents leave the CPU to the server's event loop first; 19 also runs
                         them in Linux's SCHED_IDLE class where util-linux chrt is installed

Whoever holds the token can run programs on this machine as this user: keep it secret.
Prints "listening on http://HOST:PORT" when ready. SIGINT/SIGTERM stop every session (session.exited stored)
and exit 130/143.
`;

const FLAGS = {
  host: { type: "string" },
  port: { type: "string" },
  data: { type: "string" },
  token: { type: "string" },
  "token-file": { type: "string" },
  root: { type: "string" },
  "known-agents-only": { type: "boolean" },
  mock: { type: "boolean" },
  "model-url": { type: "string" },
  cors: { type: "string" },
  durability: { type: "string" },
  nats: { type: "string" },
  "nats-stream": { type: "string" },
  "nats-creds": { type: "string" },
  "nats-tls-ca": { type: "string" },
  "nats-tls-cert": { type: "string" },
  "nats-tls-key": { type: "string" },
  "nats-replicas": { type: "string" },
  "cluster-secret-file": { type: "string" },
  node: { type: "string" },
  "lease-ms": { type: "string" },
  "agent-nice": { type: "string" },
} as const;

export const DEFAULT_PORT = 4317;
/**
 * The server's event loop serves every session; an agent is batch work, so it yields the CPU to it, at the lowest
 * priority: with Linux's autogroup scheduling each agent (a session of its own) is a group weighed
 * against the server's group, and 50 busy agents at nice 10 still outweighed the server 5:1; at 19 they also run
 * in SCHED_IDLE, which gives the CPU back at once when the server wakes (docs/performance.md).
 */
export const DEFAULT_AGENT_NICE = 19;

function portOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) throw new UsageError(`--port must be 0..65535, not "${text}"`);
  return port;
}

function leaseOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms < 300)
    throw new UsageError(`--lease-ms must be a whole number >= 300, not "${text}"`);
  return ms;
}

function agentNiceOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_AGENT_NICE;
  const nice = Number(text);
  if (!/^\d+$/.test(text) || nice > 19) throw new UsageError(`--agent-nice must be 0..19, not "${text}"`);
  return nice;
}

function replicasOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const replicas = Number(text);
  if (!/^\d+$/.test(text) || replicas < 1 || replicas > 5)
    throw new UsageError(`--nats-replicas must be 1..5, not "${text}"`);
  return replicas;
}

/** The NATS flags: none without --nats; with it, the cluster secret is required. */
function natsFlagsOf(values: Record<string, string | boolean | undefined>) {
  const natsOnly = [
    "nats-stream",
    "node",
    "lease-ms",
    "nats-creds",
    "nats-tls-ca",
    "nats-tls-cert",
    "nats-tls-key",
    "nats-replicas",
    "cluster-secret-file",
  ];
  const nats = values.nats;
  if (typeof nats !== "string") {
    const stray = natsOnly.find((flag) => values[flag] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} goes with --nats`);
    return undefined;
  }
  const secretFile = values["cluster-secret-file"];
  if (typeof secretFile !== "string")
    throw new UsageError("--nats needs --cluster-secret-file: nothing on the bus is trusted without it");
  if ((values["nats-tls-cert"] === undefined) !== (values["nats-tls-key"] === undefined))
    throw new UsageError("--nats-tls-cert and --nats-tls-key go together");
  let parsed: ReturnType<typeof parseNatsServers>;
  try {
    parsed = parseNatsServers(nats, process.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const credentials = parsed.credentials;
  const file = (flag: string) => {
    const value = values[flag];
    return typeof value === "string" ? resolve(value) : undefined;
  };
  const creds = file("nats-creds");
  if (creds !== undefined) credentials.credsFile = creds;
  const tls = { caFile: file("nats-tls-ca"), certFile: file("nats-tls-cert"), keyFile: file("nats-tls-key") };
  if (tls.caFile !== undefined || tls.certFile !== undefined) {
    credentials.tls = {};
    if (tls.caFile !== undefined) credentials.tls.caFile = tls.caFile;
    if (tls.certFile !== undefined) credentials.tls.certFile = tls.certFile;
    if (tls.keyFile !== undefined) credentials.tls.keyFile = tls.keyFile;
  }
  return {
    servers: parsed.servers,
    credentials,
    secretFile: resolve(secretFile),
    replicas: replicasOf(values["nats-replicas"] as string | undefined),
  };
}

function durabilityOf(text: string | undefined): "full" | "normal" {
  if (text === undefined || text === "normal") return "normal";
  if (text === "full") return "full";
  throw new UsageError(`--durability must be full or normal, not "${text}"`);
}

async function rootOf(text: string | undefined): Promise<string | undefined> {
  if (text === undefined) return undefined;
  try {
    return await realpath(resolve(text));
  } catch {
    throw new UsageError(`--root ${text}: no such directory`);
  }
}

export async function serveCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, FLAGS);
  if (values.help) {
    io.stdout.write(SERVE_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const natsFlags = natsFlagsOf(values);
  const leaseMs = leaseOf(values["lease-ms"]);
  if (values.nats !== undefined && values.durability !== undefined)
    throw new UsageError("--durability is for DATA/store.db, not --nats");
  const durability = durabilityOf(values.durability);
  const driverDefaults = { niceness: agentNiceOf(values["agent-nice"]) };
  const host = values.host ?? "127.0.0.1";
  const port = portOf(values.port);
  const dataDir = resolve(values.data ?? join(homedir(), ".provider-runtime"));
  const warn = (message: string) => io.stderr.write(`provider-runtime serve: ${message}\n`);
  const explicit = await explicitToken(
    { file: values["token-file"], env: process.env.PROVIDER_RUNTIME_TOKEN, flag: values.token },
    warn,
  ).catch((error: unknown) => {
    throw error instanceof TokenSourceError ? new UsageError(error.message) : error;
  });
  // refused before the token is resolved, which would make DATA and a token file in it
  if (!isLoopbackHost(host) && (explicit?.length ?? 0) < MIN_REMOTE_TOKEN_CHARS) {
    throw new UsageError(
      `--host ${host} is reachable from other machines: give a token of at least ${MIN_REMOTE_TOKEN_CHARS} characters explicitly (--token-file FILE or PROVIDER_RUNTIME_TOKEN)`,
    );
  }
  const root = await rootOf(values.root);
  const token = await resolveServerToken(explicit, dataDir);
  const modelUrl = values["model-url"];
  if (modelUrl !== undefined && values.mock)
    throw new UsageError("--mock and --model-url exclude each other");
  if (modelUrl !== undefined && !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/.test(modelUrl)) {
    throw new UsageError(`--model-url must be a loopback http://HOST:PORT, not "${modelUrl}"`);
  }
  const mocks = values.mock ? new ServeMockModels() : undefined;
  const modelBaseUrl =
    modelUrl !== undefined ? async () => modelUrl : mocks === undefined ? undefined : mocks.baseUrlFor;
  let server: SessionServer | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await server?.close().catch((error: unknown) => warn(`stopping: ${String(error)}`));
      await mocks?.close();
    })();
    return stopping;
  };
  const signals = watchStopSignals(
    (signal) => {
      warn(`${signal}: stopping every session`);
      void stop();
    },
    (signal) => {
      warn(`${signal} again: leaving without waiting for the agents`);
      process.exit(SIGNAL_EXIT_CODES[signal]);
    },
  );
  let lock: DataDirLock | undefined;
  const releaseLock = () => lock?.release();
  process.once("exit", releaseLock);
  try {
    let cluster: ClusterNode | undefined;
    if (natsFlags !== undefined) {
      cluster = await startClusterNode({
        servers: natsFlags.servers,
        credentials: natsFlags.credentials,
        auth: await readClusterSecret(natsFlags.secretFile),
        ...(natsFlags.replicas === undefined ? {} : { replicas: natsFlags.replicas }),
        dataDir,
        warn,
        ...(root === undefined ? {} : { root }),
        ...(values["nats-stream"] === undefined ? {} : { stream: values["nats-stream"] }),
        ...(values.node === undefined ? {} : { node: values.node }),
        ...(leaseMs === undefined ? {} : { leaseMs }),
        ...(modelBaseUrl === undefined ? {} : { modelBaseUrl }),
        driverDefaults,
        ...(values["known-agents-only"] === true ? { knownAgentsOnly: true } : {}),
      });
      warn(
        `node ${cluster.commands.node} of cluster ${cluster.store.stream} on ${natsFlags.servers.join(",")}`,
      );
    }
    // One server per DATA/store.db: a second one's restore would close the first's live sessions. (Cluster nodes
    // share DATA for native state by design; the cluster's store keeps them apart.)
    if (cluster === undefined) lock = await lockDataDir(dataDir);
    const store = cluster?.store ?? (await openSqliteStore({ dataDir, synchronous: durability, warn }));
    try {
      server = await startSessionServer({
        store,
        dataDir,
        ...(root === undefined ? {} : { root }),
        token: token.token,
        host,
        port,
        version: packageInfo().version,
        warn,
        driverDefaults,
        ...(values["known-agents-only"] === true ? { knownAgentsOnly: true } : {}),
        ...(values.cors === undefined ? {} : { corsOrigin: values.cors }),
        ...(modelBaseUrl === undefined ? {} : { modelBaseUrl }),
        ...(cluster === undefined ? {} : { commands: cluster.commands }),
      });
    } catch (error) {
      await store.close();
      throw error;
    }
    if (server.restored.length > 0) warn(`closed ${server.restored.length} session(s) a crash had left open`);
    if (token.file !== undefined) warn(`the token is in ${token.file}`);
    io.stdout.write(`listening on ${server.url}\n`);
    // A one-time code, not the token: the URL a person copies, or the browser keeps in its history, is spent.
    warn(
      `the inspector: ${server.url}/#code=${server.loginCode().code} (good once, for 5 minutes; POST /v1/login-codes with the token makes another)`,
    );
    const signal = await signals.first;
    await stop();
    return SIGNAL_EXIT_CODES[signal];
  } catch (error) {
    await stop();
    if (error instanceof UsageError) throw error;
    // A message of the NATS client may quote the URL it was given: never with a password in it.
    warn(redactUrl(error instanceof Error ? error.message : String(error)));
    return EXIT_FAILURE;
  } finally {
    signals.dispose();
    releaseLock();
    process.off("exit", releaseLock);
  }
}
