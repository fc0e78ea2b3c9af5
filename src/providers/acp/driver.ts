import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type DriverCapabilities,
  type DriverOptions,
  type DriverProvider,
  type ForkOptions,
  InvalidCommandError,
  type RequestResponse,
  type RuntimeDriver,
  type SessionSettings,
  type TurnInput,
  UnknownRequestError,
  UnsupportedError,
} from "../../contracts/driver.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { acpAgentCredentials, agentEnv } from "../../drivers/agent-env.js";
import { AGENT_PACKAGES, importAgentSdk } from "../../drivers/agent-programs.js";
import { resolveAttachments } from "../../drivers/attachments.js";
import { AwaitedCalls } from "../../drivers/awaited-calls.js";
import { capabilitiesOf, STEER_UNSUPPORTED } from "../../drivers/capabilities.js";
import { DriverSession, sessionIdFor } from "../../drivers/driver-session.js";
import { earlierTurnUnsupported, TurnAnchors } from "../../drivers/fork-anchors.js";
import { forkDriverOptions } from "../../drivers/fork-options.js";
import { checkedNiceness, findProgram } from "../../drivers/process-guard.js";
import { checkSettings, emitConfigured } from "../../drivers/settings.js";
import { OwnedDir } from "../../drivers/temp-dirs.js";
import { TurnDelivery } from "../../drivers/turn-delivery.js";
import { raw } from "../../kit/event-builder.js";
import { knownAcpAgentIn, OWNED_STATE_DIR_ENV, SESSION_MODE_ENV } from "./agent-commands.js";
import { AgentProcess } from "./agent-process.js";
import { AcpConnection, forkNotOffered } from "./connection.js";
import { acpForkAnchor } from "./fork-anchor.js";
import { forkStateEnv } from "./fork-state.js";
import { AcpMapper } from "./mapper.js";
import { type AcpProfile, CURSOR_PROFILE, GENERIC_PROFILE } from "./profile.js";
import { acpPromptContent } from "./session-offer.js";
import { stderrNote } from "./stderr-note.js";

/**
 * How long an ACP agent may take from its start to an open session. Generous: some load a whole session store
 * (OpenCode's database on a fork), some unpack themselves on a first start (Copilot), on a machine also running
 * other agents.
 */
const ACP_HANDSHAKE_TIMEOUT_MS = 90_000;

export const CURSOR_AGENT_COMMAND = ["agent", "acp"] as const;

export const CURSOR_NOT_INSTALLED =
  "Cursor's CLI (`agent`) is not installed or not on PATH. Install it with " +
  "`curl https://cursor.com/install -fsS | bash` (see https://cursor.com/cli), run `agent login`, " +
  "then try again — or pass another ACP agent with `--provider acp --agent CMD`.";

/** How long an agent may run on after closing its stdout before the driver ends it. */
const STDOUT_CLOSED_GRACE_MS = 500;

interface PendingAnswer {
  resolve(response: RequestResponse): void;
}

/**
 * Any ACP agent through `@agentclientprotocol/sdk`: spawns the program, does the handshake, and feeds every
 * message of both directions to the ACP mapper. Approvals wait for `respond()`.
 */
class AcpDriver implements RuntimeDriver {
  readonly sessionId: string;
  readonly events: AsyncIterable<RuntimeEvent>;
  readonly #delivery: TurnDelivery;
  readonly #session: DriverSession;
  readonly #mapper: AcpMapper;
  readonly #pending = new Map<string, PendingAnswer>();
  /** Answers that came before the SDK asked for them (see respond). */
  readonly #early = new Map<string, RequestResponse>();
  /** Requests whose answer has gone to the SDK: a second answer is refused even before it reaches the wire. */
  readonly #answered = new Set<string>();
  #agent: AgentProcess | undefined;
  #connection: AcpConnection | undefined;
  #stopping = false;
  /** A state dir made for this session by `acpAgentCommand`: removed when the session ends. */
  readonly #ownedDir = new OwnedDir();
  /** The first shutdown: every later one (a second stop) waits for it. */
  #shutdownDone: Promise<void> | undefined;
  /** The turns seen, for fork(): ACP forks the whole conversation, so only after the last one. */
  readonly #anchors = new TurnAnchors(acpForkAnchor);

  constructor(
    readonly provider: DriverProvider,
    readonly profile: AcpProfile,
    readonly command: readonly string[],
    readonly options: DriverOptions,
    readonly notInstalledMessage?: string,
  ) {
    checkedNiceness(options.niceness);
    this.sessionId = sessionIdFor(options);
    this.#mapper = new AcpMapper(profile, {
      sessionId: this.sessionId,
      sequenceAfter: options.sequenceAfter,
    });
    // a prompt's reply ends its turn: only the other requests' replies pass back-pressure
    this.#session = new DriverSession(this.#mapper, {
      ...options,
      awaitedCalls: new AwaitedCalls(["session/prompt"]),
      observe: (event) => this.#anchors.observe(event),
    });
    this.events = this.#session.channel;
    this.#delivery = new TurnDelivery(this.#session, {
      provider,
      start: (input) => this.#prompt(input),
      steerUnsupported: STEER_UNSUPPORTED[provider],
    });
  }

  /**
   * The protocol's allowance, narrowed by the agent's answers once started: the prompt content it takes, its
   * modes, its model and thought-level options, and whether it forks (`sessionCapabilities.fork`).
   */
  get capabilities(): DriverCapabilities {
    const capabilities = capabilitiesOf(this.provider);
    const offer = this.#connection?.offer;
    if (offer === undefined) return capabilities;
    capabilities.attachments = [
      ...(offer.image ? (["image"] as const) : []),
      ...(offer.embeddedContext ? (["file"] as const) : []),
    ];
    capabilities.setMode = offer.modes.length > 0;
    if (offer.modes.length > 0) capabilities.modes = offer.modes;
    capabilities.setModel = offer.modelOption !== undefined;
    if (offer.modelOption !== undefined) capabilities.models = offer.modelOption.models;
    capabilities.effort = offer.effortOption !== undefined;
    capabilities.fork = offer.fork;
    return capabilities;
  }

  async start(): Promise<void> {
    if (this.#agent !== undefined) throw new Error("driver already started");
    // a fork of a session that had a state dir of its own gets its own copy of it
    let launchEnv: Record<string, string>;
    try {
      launchEnv = await forkStateEnv(this.options.env ?? {}, this.options.forkOf?.seedHome);
    } catch (error) {
      const message = `could not copy the parent's state for the fork: ${errorText(error)}`;
      this.#session.terminate({ kind: "crash", message });
      throw new Error(message);
    }
    const { [OWNED_STATE_DIR_ENV]: ownedDir, [SESSION_MODE_ENV]: sessionMode, ...extra } = launchEnv;
    if (ownedDir !== undefined) this.#ownedDir.own(ownedDir);
    // The SDK first: if it cannot be loaded, no agent is started and the stream ends with the error.
    // The unstable entry: its schema knows the updates our capabilities unlock (subagent_update, session_message,
    // plan_update); the stable one rejects them before the tap's mapping, logging each as an error.
    let sdk: typeof import("@agentclientprotocol/sdk/unstable");
    try {
      sdk = await importAgentSdk(AGENT_PACKAGES.acpSdk, () => import("@agentclientprotocol/sdk/unstable"));
    } catch (error) {
      const message = `could not load the ACP SDK: ${errorText(error)}`;
      this.#session.terminate({ kind: "crash", message });
      await this.#ownedDir.remove();
      throw new Error(message);
    }
    const adapter = knownAcpAgentIn(this.command.join(" "));
    this.#session.warnUntestedVersions([
      AGENT_PACKAGES.acpSdk,
      ...(adapter === undefined ? [] : [ADAPTER_PACKAGES[adapter]]),
    ]);
    const env = agentEnv({
      credentials: acpAgentCredentials(this.provider === "cursor" ? "cursor" : "acp", this.command, adapter),
      mock: this.options.modelBaseUrl !== undefined,
      extra,
    });
    await this.#warnIfUnsandboxed(env);
    const agent = new AgentProcess(this.command, {
      cwd: this.options.cwd,
      env,
      cleanup: ownedDir === undefined ? [] : [ownedDir],
      niceness: this.options.niceness,
    });
    this.#agent = agent;
    const spawnError = await Promise.race([agent.spawnFailed, spawnSettled(agent)]);
    if (spawnError !== undefined) {
      const missing = (spawnError as NodeJS.ErrnoException).code === "ENOENT";
      const message =
        missing && this.notInstalledMessage !== undefined
          ? this.notInstalledMessage
          : `could not start ${this.command.join(" ")}: ${spawnError.message}`;
      this.#session.terminate({ kind: "crash", message });
      await this.#ownedDir.remove();
      throw new Error(message);
    }
    void agent.exited.then((exit) => this.#onExit(exit.code, exit.signal));
    // stdout ending normally means the agent is exiting (its exit reports the code). An agent that closed the
    // pipe but runs on can never answer again: end the session rather than wait forever.
    agent.child.stdout?.once("end", () => {
      setTimeout(() => {
        if (agent.hasExited || this.#stopping) return;
        void this.#shutdown({
          kind: "crash",
          message: `the agent closed its stdout while still running${stderrNote(agent)}`,
        });
      }, STDOUT_CLOSED_GRACE_MS).unref();
    });
    try {
      this.#connection = new AcpConnection(sdk, agent, this.#session, this.#mapper, this.profile, {
        askHost: (requestId) => this.#askHost(requestId),
      });
      await this.#connection.handshake(
        this.options,
        this.options.startTimeoutMs ?? ACP_HANDSHAKE_TIMEOUT_MS,
        sessionMode,
        this.provider,
      );
    } catch (error) {
      if (error instanceof UnsupportedError) {
        // the agent cannot do what this session was to open (a fork): the host is told so, as such
        await this.#shutdown({ kind: "crash", message: error.message });
        throw error;
      }
      const message = `ACP handshake failed: ${errorText(error)}${stderrNote(agent)}`;
      await this.#shutdown({ kind: "crash", message });
      throw new Error(message);
    }
  }

  async sendTurn(input: TurnInput): Promise<void> {
    this.#requireConnection();
    await this.#delivery.send(input);
  }

  /** `session/set_mode`, and `session/set_config_option` for the model and the thought level. */
  async configure(settings: SessionSettings): Promise<void> {
    const connection = this.#requireConnection();
    const { offer } = connection;
    const checked = checkSettings(this.provider, this.capabilities, settings, {
      model: "the agent offers no model option (session/new returned no config option of category model)",
      mode: "the agent offers no session modes",
      effort: "the agent offers no thought_level config option",
    });
    const effortValues = offer.effortOption?.values ?? [];
    if (checked.effort !== undefined && !effortValues.includes(checked.effort))
      throw new InvalidCommandError("effort", `the agent offers ${effortValues.join(", ")}`);
    if (checked.mode !== undefined) await connection.setMode(checked.mode.id);
    if (checked.model !== undefined && offer.modelOption !== undefined)
      await connection.setConfigOption(offer.modelOption.id, checked.model);
    if (checked.effort !== undefined && offer.effortOption !== undefined)
      await connection.setConfigOption(offer.effortOption.id, checked.effort);
    emitConfigured(this.#session, checked);
  }

  async #prompt(input: TurnInput): Promise<void> {
    const connection = this.#requireConnection();
    const attachments = await resolveAttachments(input, {
      provider: this.provider,
      cwd: this.options.cwd,
      supported: this.capabilities.attachments,
    });
    connection.prompt(acpPromptContent(input.text, attachments));
  }

  async respond(requestId: string, response: RequestResponse): Promise<void> {
    const pending = this.#pending.get(requestId);
    if (pending === undefined) {
      // The host may answer from the request.opened event before the SDK has handed us the request (it parses
      // an elicitation's params first): the answer waits for it.
      if (
        !this.#mapper.isOpenRequest(requestId) ||
        this.#early.has(requestId) ||
        this.#answered.has(requestId)
      )
        throw new UnknownRequestError(requestId);
      this.#early.set(requestId, response);
      return;
    }
    this.#answered.add(requestId);
    this.#pending.delete(requestId);
    pending.resolve(response);
  }

  async interrupt(): Promise<void> {
    const connection = this.#requireConnection();
    const unsupported = await connection.cancel();
    // Cursor answers session/cancel with -32601 (the mapper emits the warning): interrupt the process instead.
    if (unsupported) this.#agent?.signal("SIGINT");
  }

  warn(message: string, detail?: Record<string, unknown>): void {
    this.#session.warn(message, detail);
  }

  /** The agent has no thread name of its own: the stream's `thread.metadata.updated` comes from the driver. */
  async rename(title: string): Promise<void> {
    this.#session.renamed(title);
  }

  /**
   * A new driver whose agent opens ACP's `session/fork` of this session. That copies the whole conversation (the
   * protocol has no fork point), so a fork may end only with the last turn; an agent that does not advertise
   * `sessionCapabilities.fork` cannot fork at all. A state dir this session owns is copied for the fork at its
   * start, so the fork outlives this session's.
   */
  async fork(options: ForkOptions = {}): Promise<RuntimeDriver> {
    const connection = this.#requireConnection();
    const nativeId = connection.nativeSessionId;
    if (nativeId === undefined) throw new Error("ACP session is not running");
    if (!connection.offer.fork)
      throw new UnsupportedError(this.provider, "fork", forkNotOffered(connection.init));
    const ownedDir = this.options.env?.[OWNED_STATE_DIR_ENV];
    // throws UnknownTurnError for a turn not seen or not completed
    const forkOptions = forkDriverOptions(
      this.options,
      this.sessionId,
      nativeId,
      this.#anchors,
      options,
      ownedDir,
    );
    const turnId = options.afterTurnId;
    const latest = this.#anchors.latestTurnId;
    if (turnId !== undefined && turnId !== latest)
      throw new UnsupportedError(this.provider, "fork", earlierTurnUnsupported(turnId, latest));
    return new AcpDriver(this.provider, this.profile, this.command, forkOptions, this.notInstalledMessage);
  }

  async stop(): Promise<void> {
    await this.#shutdown({ kind: "stop", message: "stopped by the host" });
  }

  #requireConnection(): AcpConnection {
    if (this.#connection === undefined || this.#session.ended) throw new Error("ACP session is not running");
    return this.#connection;
  }

  #askHost(requestId: string): Promise<RequestResponse> {
    if (this.#stopping) return Promise.resolve({ decision: "cancel" });
    const early = this.#early.get(requestId);
    if (early !== undefined) {
      this.#early.delete(requestId);
      this.#answered.add(requestId);
      return Promise.resolve(early);
    }
    return new Promise((resolve) => this.#pending.set(requestId, { resolve }));
  }

  #cancelPending(): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const answer of pending) answer.resolve({ decision: "cancel" });
  }

  #shutdown(reason: { kind: "crash" | "stop"; message: string }): Promise<void> {
    this.#shutdownDone ??= this.#shutdownOnce(reason);
    return this.#shutdownDone;
  }

  async #shutdownOnce(reason: { kind: "crash" | "stop"; message: string }): Promise<void> {
    // the agent exited on its own (#onExit) and the removal of the state dir has begun: wait for it
    if (this.#stopping) return this.#ownedDir.remove();
    this.#stopping = true;
    // Answer pending approvals as cancelled on the wire first, so each resolves from a real answer.
    this.#cancelPending();
    await this.#connection?.flush();
    await this.#agent?.stop();
    this.#connection?.close();
    this.#session.terminate(reason);
    await this.#ownedDir.remove();
  }

  /**
   * A Codex-based agent whose config says danger-full-access runs every command unsandboxed: never silently
   * (the mock launch of codex-acp chooses it where bubblewrap is missing).
   */
  async #warnIfUnsandboxed(env: Record<string, string>): Promise<void> {
    if (env.CODEX_HOME === undefined) return;
    const config = await readFile(join(env.CODEX_HOME, "config.toml"), "utf8").catch(() => "");
    if (!/^\s*sandbox_mode\s*=\s*"danger-full-access"/m.test(config)) return;
    const why = findProgram("bwrap", env.PATH) ? "" : " (bubblewrap, bwrap, is not on PATH)";
    this.#session.emitOwn((builder) =>
      builder.emit(
        "runtime.warning",
        {
          message: `the agent runs commands without a sandbox: sandbox_mode = "danger-full-access"${why}`,
          detail: { reason: "sandbox-disabled", codexHome: env.CODEX_HOME },
        },
        { raw: raw("runtime.driver", { codexHome: env.CODEX_HOME, sandboxMode: "danger-full-access" }) },
      ),
    );
  }

  #onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#cancelPending();
    this.#connection?.close();
    void this.#ownedDir.remove();
    const how = signal === null ? `code ${code ?? "?"}` : `signal ${signal}`;
    this.#session.terminate({ kind: "crash", message: `agent exited with ${how}${stderrNote(this.#agent)}` });
  }
}

/** Resolves undefined once the process has a pid (spawned), or never when it failed (the race picks the error). */
function spawnSettled(agent: AgentProcess): Promise<undefined> {
  return new Promise((resolve) => {
    if (agent.child.pid !== undefined) resolve(undefined);
    else agent.child.once("spawn", () => resolve(undefined));
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The npm package of each known adapter, whose installed version is checked against the tested one. */
const ADAPTER_PACKAGES = {
  "claude-agent-acp": AGENT_PACKAGES.claudeAgentAcp,
  "codex-acp": AGENT_PACKAGES.codexAcp,
  opencode: AGENT_PACKAGES.opencode,
  copilot: AGENT_PACKAGES.copilot,
} as const;

/** Any ACP agent: `options.agentCommand` is its command line (`--provider acp --agent CMD`). */
export function createAcpDriver(options: DriverOptions): RuntimeDriver {
  const command = options.agentCommand;
  if (command === undefined || command.length === 0) {
    throw new Error("the acp provider needs an agent command (--agent CMD)");
  }
  return new AcpDriver("acp", GENERIC_PROFILE, command, options);
}

/** Cursor's `agent acp` (or `options.agentCommand`), with the Cursor profile. */
export function createCursorDriver(options: DriverOptions): RuntimeDriver {
  const command = options.agentCommand ?? [...CURSOR_AGENT_COMMAND];
  return new AcpDriver("cursor", CURSOR_PROFILE, command, options, CURSOR_NOT_INSTALLED);
}
