import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import type { CreateSessionBody } from "../api/schemas.js";
import type { ForkBody, SessionAdminPatch } from "../api/session-admin-schemas.js";
import type {
  DriverOptions,
  ForkSource,
  RequestResponse,
  RuntimeDriver,
  SessionSettings,
  TurnInput,
} from "../contracts/driver.js";
import { UnknownRequestError, UnsupportedError } from "../contracts/driver.js";
import { createDriver, isDriverProvider } from "../drivers/index.js";
import { wallClockIso } from "../kit/wall-clock.js";
import type { SessionRecord, SessionStore } from "../store/types.js";
import { acpLaunch, knownAgentOf } from "./acp-launch.js";
import { AgentRun, messageOf } from "./agent-run.js";
import { refuseHostPrograms } from "./host-programs.js";
import { importedForkPlan } from "./imported-fork.js";
import { nativeStateEnv } from "./native-state.js";
import { type AdminDeps, applyAdminPatch, purgeSession } from "./session-admin.js";
import { commandErrorOf, SessionCommandError, type SessionCommands } from "./session-commands.js";
import { copyNativeState, forkSourceOf } from "./session-fork.js";
import type { SessionPaths } from "./session-paths.js";
import { controlOptionsOf, createSettingsOf, inheritedControl, withSettings } from "./session-settings.js";
import { titleOf } from "./session-summary.js";

export interface LocalSessionsOptions {
  store: SessionStore;
  paths: SessionPaths;
  /**
   * `--mock`: the model server an agent of this session should use (the mock plays codex-acp differently, so the
   * known ACP agent is passed). Undefined: the agents use their real model APIs.
   */
  modelBaseUrl?: (agent: ReturnType<typeof knownAgentOf>) => Promise<string>;
  /** Extra driver options for every session (tests: a shorter start timeout; serve: `--agent-nice`). */
  driverDefaults?: Partial<Pick<DriverOptions, "startTimeoutMs" | "highWaterMark" | "niceness">>;
  clock?: () => string;
  warn?: (message: string) => void;
  /** `serve --known-agents-only`: no program a host names (an ACP command line, a stdio MCP server) is run. */
  knownAgentsOnly?: boolean;
}

const PAGE = 1_000;

/** Runs every session's agent in this process: one driver per session, its events stored before anyone reads them. */
export class LocalSessions implements SessionCommands {
  readonly #store: SessionStore;
  readonly #paths: SessionPaths;
  readonly #options: LocalSessionsOptions;
  readonly #clock: () => string;
  readonly #warn: (message: string) => void;
  readonly #runs = new Map<string, AgentRun>();
  /** A resume under way, so that two turns at once start one agent. */
  readonly #launching = new Map<string, Promise<AgentRun>>();
  #closed = false;

  constructor(options: LocalSessionsOptions) {
    this.#options = options;
    this.#store = options.store;
    this.#paths = options.paths;
    this.#clock = options.clock ?? wallClockIso;
    this.#warn = options.warn ?? (() => undefined);
  }

  async create(body: CreateSessionBody): Promise<SessionRecord> {
    if (this.#closed) throw new SessionCommandError("unavailable", "the server is shutting down");
    if (body.provider === "acp" && body.agent === undefined) {
      throw new SessionCommandError("invalid", "agent: provider acp needs an agent command line", "agent");
    }
    if (this.#options.knownAgentsOnly === true) refuseHostPrograms(body);
    const id = `ses_${randomUUID()}`;
    const cwd = await this.#paths.cwdFor(id, body.cwd);
    const stateDir = await this.#paths.makeStateDir(id);
    const now = this.#clock();
    const record: SessionRecord = {
      id,
      provider: body.provider,
      origin: "live",
      createdAt: now,
      updatedAt: now,
      cwd,
      native: {
        stateDir,
        ...(body.resume === undefined ? {} : { resumeId: body.resume }),
        ...createSettingsOf(body),
      },
      state: "starting",
      lastSequence: 0,
      openRequests: 0,
      exited: false,
      ...(body.model === undefined ? {} : { model: body.model }),
      ...(body.agent === undefined ? {} : { agent: body.agent }),
    };
    await this.#store.createSession(record);
    await this.#launch(record, body.resume);
    return (await this.#store.getSession(id)) ?? record;
  }

  /**
   * A new session on a native fork of the parent's thread through `afterTurnId`: the parent's native state is
   * copied into the fork's own dir and the fork's agent opens the fork there (Codex `thread/fork`, Claude
   * `resume` + `forkSession`, ACP `session/fork`), whether the parent's agent runs or has exited. The parent is
   * untouched. An imported history's native file is copied in instead, and the fork is a live session of the
   * provider that wrote it (see importedForkPlan).
   */
  async fork(sessionId: string, body: ForkBody): Promise<SessionRecord> {
    if (this.#closed) throw new SessionCommandError("unavailable", "the server is shutting down");
    const parent = await this.#record(sessionId);
    const imported =
      parent.origin === "import"
        ? await importedForkPlan(this.#store, this.#paths, parent, body, {
            ownState: this.#options.modelBaseUrl !== undefined,
            env: process.env,
          })
        : undefined;
    const source = imported?.source ?? (await forkSourceOf(this.#store, parent, body));
    const id = `ses_${randomUUID()}`;
    const stateDir = await this.#paths.makeStateDir(id);
    try {
      if (imported !== undefined) await imported.place(stateDir);
      else await copyNativeState(parent.native?.stateDir, stateDir);
    } catch (error) {
      await rm(stateDir, { recursive: true, force: true });
      throw error;
    }
    const cwd = imported?.cwd ?? (await this.#paths.cwdFor(id, parent.cwd));
    const now = this.#clock();
    const record: SessionRecord = {
      id,
      // an imported history goes on in a live session of the provider that wrote it
      provider: imported?.provider ?? parent.provider,
      origin: "live",
      createdAt: now,
      updatedAt: now,
      cwd,
      // the parent's settings and MCP servers go on in the fork; its own native ids do not
      native: { ...inheritedControl(parent), stateDir },
      state: "starting",
      lastSequence: 0,
      openRequests: 0,
      exited: false,
      parentId: parent.id,
      ...(parent.model === undefined ? {} : { model: parent.model }),
      ...(parent.agent === undefined ? {} : { agent: parent.agent }),
    };
    await this.#store.createSession(record);
    const run = await this.#launch(record, undefined, source);
    if (run.startError !== undefined) {
      // a fork that never opened is no session: nothing of it stays (a later turn must not resume something else)
      await purgeSession(this.#adminDeps(), record).catch(() => undefined);
      // an agent that answered it cannot fork (ACP: no session/fork in its initialize answer) is a 422
      if (run.startUnsupported) throw new SessionCommandError("unsupported", run.startError);
      throw new SessionCommandError("unavailable", `the fork's agent did not start: ${run.startError}`);
    }
    return (await this.#store.getSession(id)) ?? record;
  }

  async updateAdmin(sessionId: string, patch: SessionAdminPatch): Promise<SessionRecord> {
    return applyAdminPatch(this.#adminDeps(), await this.#record(sessionId), patch);
  }

  async purge(sessionId: string): Promise<void> {
    await purgeSession(this.#adminDeps(), await this.#record(sessionId));
  }

  #adminDeps(): AdminDeps {
    return {
      store: this.#store,
      paths: this.#paths,
      clock: this.#clock,
      liveDriver: async (id) => this.#liveDriver(id),
      stop: async (id) => {
        await this.stop(id);
      },
    };
  }

  async #liveDriver(sessionId: string): Promise<RuntimeDriver | undefined> {
    const launching = this.#launching.get(sessionId);
    if (launching !== undefined) await launching.catch(() => undefined);
    const run = this.#runs.get(sessionId);
    return run === undefined || run.exited ? undefined : run.driver;
  }

  async turn(sessionId: string, input: TurnInput): Promise<void> {
    const record = await this.#record(sessionId);
    const run = await this.#running(record);
    const { delivery, ...turn } = input;
    const refused = (message: string) =>
      new SessionCommandError("conflict", `the agent did not take the turn: ${message}`);
    if (run.turnBusy && (delivery === "queue" || delivery === "steer")) {
      // the running turn takes it (steer), or the driver starts it when that turn ends (queue)
      if (delivery === "queue") run.queueTurn();
      try {
        await run.driver.sendTurn({ ...turn, delivery });
      } catch (error) {
        if (delivery === "queue") run.unqueueTurn();
        throw commandErrorOf(error, refused);
      }
      return;
    }
    run.beginTurn();
    try {
      if (record.title === undefined)
        await this.#store.updateSession(sessionId, { title: titleOf(input.text) });
      await run.driver.sendTurn(turn);
    } catch (error) {
      run.endTurn();
      throw commandErrorOf(error, refused);
    }
  }

  async configure(sessionId: string, settings: SessionSettings): Promise<SessionRecord> {
    const record = await this.#record(sessionId);
    const run = await this.#running(record);
    try {
      await run.driver.configure(settings);
    } catch (error) {
      throw commandErrorOf(error, (message) => new SessionCommandError("conflict", message));
    }
    // kept in the record, so that a resumed agent starts with them
    const latest = (await this.#store.getSession(sessionId)) ?? record;
    await this.#store.updateSession(sessionId, withSettings(latest, settings));
    return (await this.#store.getSession(sessionId)) ?? record;
  }

  async respond(sessionId: string, requestId: string, response: RequestResponse): Promise<void> {
    await this.#record(sessionId);
    const run = this.#runs.get(sessionId);
    if (run?.isOpenRequest(requestId)) {
      try {
        await run.driver.respond(requestId, response);
        return;
      } catch (error) {
        if (!(error instanceof UnknownRequestError))
          throw new SessionCommandError("invalid", messageOf(error));
      }
    }
    if (run?.wasResolved(requestId) || (await this.#requestWasOpened(sessionId, requestId))) {
      throw new SessionCommandError("conflict", `request ${requestId} is already resolved`);
    }
    throw new SessionCommandError("not_found", `no request ${requestId} in session ${sessionId}`);
  }

  async interrupt(sessionId: string): Promise<void> {
    await this.#record(sessionId);
    const run = this.#runs.get(sessionId);
    if (run === undefined || run.exited)
      throw new SessionCommandError("conflict", "the agent is not running");
    await run.driver.interrupt();
  }

  async stop(sessionId: string): Promise<SessionRecord> {
    const record = await this.#record(sessionId);
    const launching = this.#launching.get(sessionId);
    if (launching !== undefined) await launching.catch(() => undefined);
    await this.#runs.get(sessionId)?.stop();
    return (await this.#store.getSession(sessionId)) ?? record;
  }

  /** A `runtime.warning` in the stream of every session whose agent runs here (RuntimeDriver.warn). */
  warnRunning(message: string, detail?: Record<string, unknown>): void {
    for (const run of this.#runs.values()) if (!run.exited) run.driver.warn?.(message, detail);
  }

  /** A `runtime.warning` in one session's stream, if its agent runs here; false when it does not. */
  warnSession(sessionId: string, message: string, detail?: Record<string, unknown>): boolean {
    const run = this.#runs.get(sessionId);
    if (run === undefined || run.exited || run.driver.warn === undefined) return false;
    run.driver.warn(message, detail);
    return true;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#launching.values()].map((launch) => launch.catch(() => undefined)));
    await Promise.all([...this.#runs.values()].map((run) => run.stop()));
  }

  /** The live run of a session, resuming its agent natively when it has exited. */
  async #running(record: SessionRecord): Promise<AgentRun> {
    const current = this.#runs.get(record.id);
    const run =
      this.#launching.get(record.id) ??
      (current !== undefined && !current.exited ? current : this.#resume(record, current));
    const running = await run;
    if (running.startError !== undefined) {
      throw new SessionCommandError("unavailable", `the agent did not start: ${running.startError}`);
    }
    return running;
  }

  /** Restarts an exited session's agent with its native resume id; one at a time per session. */
  #resume(record: SessionRecord, last: AgentRun | undefined): Promise<AgentRun> {
    if (this.#closed) throw new SessionCommandError("unavailable", "the server is shutting down");
    if (record.origin !== "live") {
      throw new SessionCommandError("conflict", "an imported history cannot take turns");
    }
    const resume = (async () => {
      await last?.done;
      const latest = (await this.#store.getSession(record.id)) ?? record;
      return this.#launch(latest, latest.native?.resumeId);
    })();
    this.#launching.set(record.id, resume);
    const forget = () => {
      if (this.#launching.get(record.id) === resume) this.#launching.delete(record.id);
    };
    resume.then(forget, forget);
    return resume;
  }

  /** Starts a driver for the session, numbering on from its last stored event. */
  async #launch(record: SessionRecord, resume: string | undefined, forkOf?: ForkSource): Promise<AgentRun> {
    const provider = record.provider;
    if (!isDriverProvider(provider)) throw new SessionCommandError("invalid", `unknown provider ${provider}`);
    const stateDir = record.native?.stateDir ?? (await this.#paths.makeStateDir(record.id));
    const known = knownAgentOf(record.agent);
    const modelBaseUrl = await this.#options.modelBaseUrl?.(known);
    const sequenceAfter = await this.#lastStoredSequence(record);
    const options: DriverOptions = {
      // checked at every (re)start, not only at creation: --root may have changed since
      cwd: await this.#paths.checkedCwd(record.id, record.cwd),
      sessionId: record.id,
      sequenceAfter,
      ...this.#options.driverDefaults,
      ...(record.model === undefined ? {} : { model: record.model }),
      ...(resume === undefined ? {} : { resume }),
      ...controlOptionsOf(record),
      ...(forkOf === undefined ? {} : { forkOf }),
    };
    if (modelBaseUrl !== undefined) {
      options.modelBaseUrl = modelBaseUrl;
      options.env = await nativeStateEnv(provider, stateDir);
    }
    if (record.agent !== undefined && (provider === "acp" || provider === "cursor")) {
      const launch = await acpLaunch(record.agent, modelBaseUrl, stateDir);
      options.agentCommand = launch.command;
      options.env = { ...options.env, ...launch.env };
    }
    let driver: Awaited<ReturnType<typeof createDriver>>;
    try {
      driver = await createDriver(provider, options);
    } catch (error) {
      // No agent to run (its package is not installed, say): the session stays, exited, and the client is told.
      await this.#store.updateSession(record.id, { state: "error", exited: true });
      throw new SessionCommandError("unavailable", `the ${provider} agent cannot start: ${messageOf(error)}`);
    }
    const run = new AgentRun({
      store: this.#store,
      record: { ...record, lastSequence: sequenceAfter },
      driver,
      warn: this.#warn,
    });
    this.#runs.set(record.id, run);
    void run.done.then(() => {
      if (this.#runs.get(record.id) === run) this.#runs.delete(record.id);
    });
    try {
      await driver.start();
      await run.settled();
    } catch (error) {
      // The driver has closed its stream (session.exited says why); the session stays, exited.
      run.startError = messageOf(error);
      run.startUnsupported = error instanceof UnsupportedError;
      this.#warn(`session ${record.id}: the agent did not start: ${run.startError}`);
      await run.stop();
    }
    return run;
  }

  async #record(sessionId: string): Promise<SessionRecord> {
    const record = await this.#store.getSession(sessionId);
    if (record === undefined) throw new SessionCommandError("not_found", `no session ${sessionId}`);
    return record;
  }

  /** The sequence of the session's last stored event: the registry's, or later if its update was lost. */
  async #lastStoredSequence(record: SessionRecord): Promise<number> {
    let last = record.lastSequence;
    for (;;) {
      const page = await this.#store.readEvents(record.id, last, PAGE);
      const tail = page.at(-1);
      if (tail === undefined) return last;
      last = tail.sequence;
    }
  }

  /** Whether the stored stream ever opened this request (then it is resolved: no agent holds it open). */
  async #requestWasOpened(sessionId: string, requestId: string): Promise<boolean> {
    let after = 0;
    for (;;) {
      const page = await this.#store.readEvents(sessionId, after, PAGE);
      if (page.some((event) => event.type === "request.opened" && event.requestId === requestId)) return true;
      const tail = page.at(-1);
      if (tail === undefined) return false;
      after = tail.sequence;
    }
  }
}
