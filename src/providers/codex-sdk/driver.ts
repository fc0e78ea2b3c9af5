import type { Codex, Input, Thread, ThreadEvent, ThreadOptions } from "@openai/codex-sdk";
import {
  type DriverCapabilities,
  type RequestResponse,
  type RuntimeDriver,
  type SessionSettings,
  type TurnInput,
  UnknownRequestError,
  UnsupportedError,
} from "../../contracts/driver.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { AGENT_PACKAGES, codexSdkBinary, importAgentSdk } from "../../drivers/agent-programs.js";
import { resolveAttachments } from "../../drivers/attachments.js";
import { capabilitiesOf, STEER_UNSUPPORTED } from "../../drivers/capabilities.js";
import { DriverSession, sessionIdFor } from "../../drivers/driver-session.js";
import { FORK_UNSUPPORTED } from "../../drivers/fork-anchors.js";
import { checkedNiceness, guardsEnded, HOST_KILL_AFTER_MS } from "../../drivers/process-guard.js";
import type { CodexSdkDriverOptions } from "../../drivers/provider-options.js";
import { checkSettings, emitConfigured } from "../../drivers/settings.js";
import { OwnedDir } from "../../drivers/temp-dirs.js";
import { TurnDelivery } from "../../drivers/turn-delivery.js";
import { EXEC_MODE_OPTIONS, execInput, execMcpConfig } from "./command-surface.js";
import { CodexSdkMapper } from "./mapper.js";
import { type HostRecord, TURN_INPUT, TURN_INTERRUPT } from "./records.js";
import { codexConfig, execEnvironment } from "./sdk-options.js";

export type { CodexSdkDriverOptions };

/** The mock's model name: one Codex knows (an unknown name adds a "model metadata not found" item). */
const MOCK_MODEL = "gpt-5.5";
const DEFAULT_START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;

/** A turn in flight: one `codex exec` process. */
interface ActiveRun {
  abort: AbortController;
  done: Promise<void>;
  /** Set when the host aborted it (interrupt or stop): the exec error that follows is expected. */
  abortedByHost: boolean;
  /** The native stream ended the turn (turn.completed / turn.failed): a non-zero exit after it is not a crash. */
  turnEnded: boolean;
}

/**
 * The Codex TypeScript SDK driver: `Thread.runStreamed()` per turn (each a `codex exec --experimental-json`
 * process of the SDK's own codex binary), abort for interrupt. exec has no approval channel, so no request is
 * ever opened and `respond()` always rejects.
 */
export function createCodexSdkDriver(options: CodexSdkDriverOptions): RuntimeDriver {
  return new CodexSdkDriver(options);
}

class CodexSdkDriver implements RuntimeDriver {
  readonly provider = "codex-sdk" as const;
  readonly sessionId: string;
  readonly events: AsyncIterable<RuntimeEvent>;
  readonly capabilities: DriverCapabilities = capabilitiesOf("codex-sdk");
  readonly #delivery: TurnDelivery;
  #codex: Codex | undefined;
  #threadOptions: ThreadOptions = {};
  readonly #options: CodexSdkDriverOptions;
  readonly #session: DriverSession;
  readonly #mapper: CodexSdkMapper;
  #thread: Thread | undefined;
  readonly #ownedHome = new OwnedDir();
  /** The guards' pid files: the SDK does not wait for exec to exit, the home's removal does. */
  #pidDir: string | undefined;
  #run: ActiveRun | undefined;
  #stopped: Promise<void> | undefined;

  constructor(options: CodexSdkDriverOptions) {
    checkedNiceness(options.niceness);
    this.#options = options;
    this.sessionId = sessionIdFor(options);
    this.#mapper = new CodexSdkMapper({ sessionId: this.sessionId, sequenceAfter: options.sequenceAfter });
    this.#session = new DriverSession(this.#mapper, options);
    this.events = this.#session.channel;
    this.#delivery = new TurnDelivery(this.#session, {
      provider: this.provider,
      start: (input) => this.#startTurn(input),
      steerUnsupported: STEER_UNSUPPORTED["codex-sdk"],
    });
  }

  async start(): Promise<void> {
    if (this.#thread !== undefined) return;
    try {
      const sdk = await importAgentSdk(AGENT_PACKAGES.codexSdk, () => import("@openai/codex-sdk"));
      this.#session.warnUntestedVersions([AGENT_PACKAGES.codexSdk]);
      const mock = this.#options.modelBaseUrl;
      const given = this.#options.executablePath ?? this.#options.codexPath;
      const program = given === undefined ? codexSdkBinary() : { path: given, pathDirs: [] };
      const { env, executable, ownedDir, pidDir } = await execEnvironment(
        mock,
        this.#options.env,
        program,
        this.#options.niceness,
      );
      this.#ownedHome.own(ownedDir);
      this.#pidDir = pidDir;
      // The SDK spawns exec itself; through the guard script, so that exec never outlives the host.
      const codex: Codex = new sdk.Codex({
        config: codexConfig(mock, { ...execMcpConfig(this.#options.mcpServers), ...this.#options.config }),
        env,
        codexPathOverride: executable,
      });
      const model = this.#options.model ?? (mock === undefined ? undefined : MOCK_MODEL);
      const mode = this.#options.mode;
      const canonical =
        mode === undefined
          ? undefined
          : checkSettings(this.provider, this.capabilities, { mode }).mode?.canonical;
      const threadOptions: ThreadOptions = {
        workingDirectory: this.#options.cwd,
        skipGitRepoCheck: true,
        ...(canonical === undefined || canonical === "ask"
          ? { sandboxMode: "workspace-write" as const }
          : EXEC_MODE_OPTIONS[canonical]),
        ...(model === undefined ? {} : { model }),
        ...(this.#options.effort === undefined
          ? {}
          : {
              modelReasoningEffort: this.#options.effort as NonNullable<
                ThreadOptions["modelReasoningEffort"]
              >,
            }),
      };
      this.#codex = codex;
      this.#threadOptions = threadOptions;
      this.#thread =
        this.#options.resume === undefined
          ? codex.startThread(threadOptions)
          : codex.resumeThread(this.#options.resume, threadOptions);
    } catch (error) {
      this.#session.terminate({
        kind: "crash",
        message: `could not start the Codex SDK: ${messageOf(error)}`,
      });
      await this.#ownedHome.remove();
      throw error;
    }
  }

  async sendTurn(input: TurnInput): Promise<void> {
    if (this.#thread === undefined) throw new Error("codex-sdk driver: call start() first");
    await this.#delivery.send(input);
  }

  /**
   * exec takes its model, effort and sandbox once per run: a change applies from the next turn on (the thread is
   * resumed with the new options), never to a turn that runs.
   */
  async configure(settings: SessionSettings): Promise<void> {
    const codex = this.#codex;
    const thread = this.#thread;
    if (codex === undefined || thread === undefined) throw new Error("codex-sdk driver: call start() first");
    const checked = checkSettings(this.provider, this.capabilities, settings);
    const canonical = checked.mode?.canonical;
    this.#threadOptions = {
      ...this.#threadOptions,
      ...(checked.model === undefined ? {} : { model: checked.model }),
      ...(checked.effort === undefined
        ? {}
        : { modelReasoningEffort: checked.effort as NonNullable<ThreadOptions["modelReasoningEffort"]> }),
      ...(canonical === undefined || canonical === "ask" ? {} : EXEC_MODE_OPTIONS[canonical]),
    };
    const id = thread.id ?? this.#options.resume;
    this.#thread =
      id === null || id === undefined
        ? codex.startThread(this.#threadOptions)
        : codex.resumeThread(id, this.#threadOptions);
    emitConfigured(this.#session, checked, { appliesFrom: "the next exec run" });
  }

  /** Resolves once exec has started the turn (its `turn.started`); rejects if the run fails before that. */
  async #startTurn(turnInput: TurnInput): Promise<void> {
    const attachments = await resolveAttachments(turnInput, {
      provider: this.provider,
      cwd: this.#options.cwd,
      supported: this.capabilities.attachments,
    });
    const input = await execInput(turnInput.text, attachments, this.#ownedHome.path);
    const thread = this.#thread;
    if (thread === undefined) throw new Error("codex-sdk driver: call start() first");
    if (this.#session.ended) throw new Error("codex-sdk driver: the session has ended");
    const previous = this.#run;
    if (previous !== undefined) {
      // After its turn.completed, the previous exec process only has to exit.
      if (!previous.turnEnded)
        throw new Error("codex-sdk driver: a turn is already running (exec cannot steer)");
      await withTimeout(previous.done, STOP_GRACE_MS);
      if (this.#session.ended) throw new Error("codex-sdk driver: the session has ended");
    }
    this.#record({ type: TURN_INPUT, input });

    let accept: () => void = () => undefined;
    let refuse: (error: Error) => void = () => undefined;
    const accepted = new Promise<void>((resolve, reject) => {
      accept = resolve;
      refuse = reject;
    });
    const run: ActiveRun = {
      abort: new AbortController(),
      done: Promise.resolve(),
      abortedByHost: false,
      turnEnded: false,
    };
    this.#run = run;
    run.done = this.#consume(thread, input, run, accept).then(
      () => accept(),
      (error: unknown) => refuse(error instanceof Error ? error : new Error(String(error))),
    );
    void run.done.finally(() => {
      if (this.#run === run) this.#run = undefined;
    });

    const timeoutMs = this.#options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const message = `codex exec did not start the turn within ${timeoutMs} ms`;
        run.abortedByHost = true;
        run.abort.abort();
        this.#crash(message);
        reject(new Error(message));
      }, timeoutMs);
    });
    try {
      await Promise.race([accepted, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async respond(requestId: string, _response: RequestResponse): Promise<void> {
    throw new UnknownRequestError(requestId);
  }

  /** The agent has no thread name of its own: the stream's `thread.metadata.updated` comes from the driver. */
  async rename(title: string): Promise<void> {
    this.#session.renamed(title);
  }

  /** The SDK has no fork (see the reason); the app-server driver (provider codex) forks at a turn. */
  async fork(): Promise<RuntimeDriver> {
    throw new UnsupportedError("codex-sdk", "fork", FORK_UNSUPPORTED["codex-sdk"]);
  }

  async interrupt(): Promise<void> {
    const run = this.#run;
    if (run === undefined || run.turnEnded || this.#session.ended) return;
    this.#record({ type: TURN_INTERRUPT, reason: "interrupted by host" });
    run.abortedByHost = true;
    run.abort.abort();
    await withTimeout(run.done, STOP_GRACE_MS);
  }

  warn(message: string, detail?: Record<string, unknown>): void {
    this.#session.warn(message, detail);
  }

  /** Every call resolves once the session has stopped and its dir is gone (a second call waits for the first). */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    const run = this.#run;
    if (run !== undefined) {
      if (!run.turnEnded && !this.#session.ended)
        this.#record({ type: TURN_INTERRUPT, reason: "stopped by host" });
      run.abortedByHost = true;
      run.abort.abort();
      await withTimeout(run.done, STOP_GRACE_MS);
    }
    this.#session.terminate({ kind: "stop", message: "stopped by host" });
    await this.#removeHome();
  }

  /** Once exec has exited (it writes to its home while it shuts down), or after the guard's own deadline. */
  async #removeHome(): Promise<void> {
    if (this.#pidDir !== undefined) await guardsEnded(this.#pidDir, HOST_KILL_AFTER_MS);
    await this.#ownedHome.remove();
  }

  /** The session ends on a failure: the exec process is gone or going (its guard ends it), and so is the dir. */
  #crash(message: string): void {
    this.#session.terminate({ kind: "crash", message });
    void this.#removeHome();
  }

  #record(record: HostRecord): void {
    this.#session.ingest("out", record);
  }

  /** Feeds one exec run's ThreadEvents to the session; a run that dies with its turn open ends the session. */
  async #consume(thread: Thread, input: Input, run: ActiveRun, accept: () => void): Promise<void> {
    let started = false;
    try {
      const { events } = await thread.runStreamed(input, { signal: run.abort.signal });
      for await (const event of events as AsyncGenerator<ThreadEvent>) {
        if (this.#session.ended || run.abortedByHost) break;
        const hostKeepsUp = this.#session.ingest("in", event);
        if (event.type === "turn.started") {
          started = true;
          accept();
        }
        if (event.type === "turn.completed" || event.type === "turn.failed") run.turnEnded = true;
        // Back-pressure only once the turn has started: sendTurn() waits for turn.started, and a host that reads
        // after sendTurn() resolves would otherwise never drain the queue (a deadlock until the start timeout).
        if (!hostKeepsUp && started && !this.#session.ended)
          await this.#session.channel.drained(run.abort.signal);
      }
      if (!run.turnEnded && !run.abortedByHost && !this.#session.ended) {
        // exec exited cleanly but its stream never ended the turn (e.g. its stdout closed early): not a success.
        const message = "codex exec ended without finishing the turn";
        this.#crash(message);
        throw new Error(message);
      }
    } catch (error) {
      if (run.abortedByHost || this.#session.ended) return;
      const message = messageOf(error);
      const garbage = /^Failed to parse item: ([\s\S]*)$/.exec(message);
      if (garbage !== null) this.#session.ingestGarbage(garbage[1] ?? "");
      if (run.turnEnded && garbage === null) return;
      this.#crash(`codex exec failed: ${message.trim()}`);
      throw error;
    }
  }
}

async function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
