import type { SessionStore } from "../store/types.js";
import { createServerApp } from "./app.js";
import { DEFAULT_LISTEN_LIMITS, type HttpListener, type ListenLimits, listen } from "./http-listener.js";
import { defaultInspectorDir } from "./inspector-static.js";
import { LocalSessions, type LocalSessionsOptions } from "./local-sessions.js";
import { LoginCodes } from "./login-codes.js";
import { closeAbandonedSessions } from "./restore.js";
import { isLoopbackHost } from "./server-token.js";
import type { SessionCommands } from "./session-commands.js";
import { feedingStore, SessionFeed } from "./session-feed.js";
import { SessionPaths } from "./session-paths.js";

export interface SessionServerOptions {
  store: SessionStore;
  /** Absolute; holds the agents' native state and default working dirs. */
  dataDir: string;
  /** Absolute and real (symlinks resolved): every session's cwd must lie inside it. */
  root?: string;
  token: string;
  host: string;
  port: number;
  version: string;
  corsOrigin?: string;
  modelBaseUrl?: LocalSessionsOptions["modelBaseUrl"];
  driverDefaults?: LocalSessionsOptions["driverDefaults"];
  knownAgentsOnly?: boolean;
  heartbeatMs?: number;
  maxBodyBytes?: number;
  inspectorDir?: string;
  /** Connection timeouts and cap (default DEFAULT_LISTEN_LIMITS). */
  listenLimits?: Partial<ListenLimits>;
  /**
   * Who runs the agents; default `LocalSessions` in this process, after closing what a crash left open. A
   * caller that passes its own (a cluster) does its own restore.
   */
  commands?: SessionCommands;
  warn?: (message: string) => void;
}

export interface SessionServer {
  url: string;
  port: number;
  commands: SessionCommands;
  /** The sessions a crash had left open, closed at this start. */
  restored: string[];
  /** A one-time code that opens the inspector: `${url}/#code=${code}` (see LoginCodes). */
  loginCode(): { code: string; expiresAt: string };
  /** Stops every agent (each `session.exited` stored), then the HTTP server, then the store. */
  close(): Promise<void>;
}

export async function startSessionServer(options: SessionServerOptions): Promise<SessionServer> {
  const feed = new SessionFeed(options.store);
  // this process's writers touch the feed as they write: the list's subscribers hear of a change at once
  const store = feedingStore(options.store, feed);
  const warn = options.warn ?? (() => undefined);
  let restored: string[] = [];
  let commands = options.commands;
  if (commands === undefined) {
    restored = await closeAbandonedSessions(store);
    commands = new LocalSessions({
      store,
      paths: new SessionPaths(options.dataDir, options.root),
      warn,
      ...(options.modelBaseUrl === undefined ? {} : { modelBaseUrl: options.modelBaseUrl }),
      ...(options.driverDefaults === undefined ? {} : { driverDefaults: options.driverDefaults }),
      ...(options.knownAgentsOnly === true ? { knownAgentsOnly: true } : {}),
    });
  }
  const loginCodes = new LoginCodes();
  const app = createServerApp({
    loginCodes,
    store,
    commands,
    token: options.token,
    version: options.version,
    inspectorDir: options.inspectorDir ?? defaultInspectorDir(),
    loopbackOnly: isLoopbackHost(options.host),
    feed,
    ...(options.corsOrigin === undefined ? {} : { corsOrigin: options.corsOrigin }),
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
  });
  let http: HttpListener;
  try {
    http = await listen(app, options.host, options.port, {
      ...DEFAULT_LISTEN_LIMITS,
      ...options.listenLimits,
    });
  } catch (error) {
    await commands.close();
    throw error;
  }
  const running = commands;
  let closing: Promise<void> | undefined;
  return {
    url: http.url,
    port: http.port,
    commands: running,
    restored,
    loginCode: () => loginCodes.issue(),
    close: () => {
      closing ??= (async () => {
        await running.close();
        await http.close();
        await store.close();
      })();
      return closing;
    },
  };
}
