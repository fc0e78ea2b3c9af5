import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type {
  CanUseTool,
  Options,
  PermissionResult,
  Query,
  SDKUserMessage,
  SpawnedProcess,
  SpawnOptions,
} from "@anthropic-ai/claude-agent-sdk";
import {
  type DriverCapabilities,
  type ForkOptions,
  type RequestResponse,
  type RuntimeDriver,
  type SessionSettings,
  type TurnInput,
  UnknownRequestError,
} from "../../contracts/driver.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { agentEnv } from "../../drivers/agent-env.js";
import { AGENT_PACKAGES, importAgentSdk } from "../../drivers/agent-programs.js";
import { resolveAttachments } from "../../drivers/attachments.js";
import { capabilitiesOf } from "../../drivers/capabilities.js";
import { DriverSession, sessionIdFor } from "../../drivers/driver-session.js";
import { TurnAnchors } from "../../drivers/fork-anchors.js";
import { forkDriverOptions, seedHome } from "../../drivers/fork-options.js";
import { claudeModelEnv } from "../../drivers/model-config.js";
import { checkedNiceness, HOST_KILL_AFTER_MS, spawnGuarded } from "../../drivers/process-guard.js";
import type { ClaudeDriverOptions } from "../../drivers/provider-options.js";
import { emitConfigured } from "../../drivers/settings.js";
import { makePrivateDir, makePrivateSubdir, OwnedDir } from "../../drivers/temp-dirs.js";
import { TurnDelivery } from "../../drivers/turn-delivery.js";
import { ClaudeSdkMapper } from "./claude-mapper.js";
import { claudeContent, claudeMcpServers } from "./command-surface.js";
import { claudeForkAnchor } from "./fork-anchor.js";
import {
  cancelAnswer,
  type PendingPermission,
  type PermissionAnswer,
  permissionAnswer,
} from "./permission-result.js";
import { PromptQueue } from "./prompt-queue.js";
import {
  INTERRUPT_REQUEST,
  type InterruptRequestRecord,
  PERMISSION_DECISION,
  PERMISSION_REQUEST,
  type PermissionDecisionRecord,
  type PermissionRequestRecord,
} from "./records.js";
import { ClaudeSettings, runsAsRoot, warnSandboxAssumed } from "./settings.js";

export type { ClaudeDriverOptions };

const MOCK_MODEL = "claude-sonnet-4-5";
const DEFAULT_START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;
const STDERR_LINES = 20;
/** How long Claude Code may run on after closing its stdout before the driver ends it. */
const STDOUT_CLOSED_GRACE_MS = 500;

interface OpenPermission extends PendingPermission {
  requestKey: string;
  settle: (answer: PermissionAnswer, decision: PermissionDecisionRecord["decision"], reason?: string) => void;
}

/**
 * The Claude Agent SDK driver: one `query()` in streaming-input mode for the whole session (several turns), with
 * `canUseTool` turned into canonical requests the host answers through `respond()`.
 */
export function createClaudeDriver(options: ClaudeDriverOptions): RuntimeDriver {
  return new ClaudeDriver(options);
}

class ClaudeDriver implements RuntimeDriver {
  readonly provider = "claude" as const;
  readonly sessionId: string;
  readonly events: AsyncIterable<RuntimeEvent>;
  readonly capabilities: DriverCapabilities = capabilitiesOf("claude");
  readonly #delivery: TurnDelivery;
  readonly #settings = new ClaudeSettings(this.capabilities);
  readonly #options: ClaudeDriverOptions;
  readonly #mapper: ClaudeSdkMapper;
  readonly #session: DriverSession;
  /** Claude's session id: chosen here (or the one resumed), before Claude reports it. */
  readonly #nativeSessionId: string;
  readonly #prompts = new PromptQueue<SDKUserMessage>();
  readonly #permissions = new Map<string, OpenPermission>();
  readonly #abort = new AbortController();
  readonly #stderr: string[] = [];
  #query: Query | undefined;
  #pump: Promise<void> | undefined;
  readonly #configDir = new OwnedDir();
  readonly #anchors = new TurnAnchors(claudeForkAnchor);
  /** Claude Code's config dir (its sessions' files), once known. */
  #configHome: string | undefined;
  /** Claude Code's guards still running: the config dir goes once they have exited (Claude Code writes to it). */
  readonly #children = new Set<Promise<void>>();
  #stopping = false;
  #stopped: Promise<void> | undefined;
  #requestCount = 0;

  constructor(options: ClaudeDriverOptions) {
    checkedNiceness(options.niceness);
    this.#options = options;
    this.sessionId = sessionIdFor(options);
    this.#mapper = new ClaudeSdkMapper({ sessionId: this.sessionId, sequenceAfter: options.sequenceAfter });
    // a fork is a new Claude session (forkSession), whose id is chosen here as for a fresh one
    this.#nativeSessionId = (options.forkOf === undefined ? options.resume : undefined) ?? randomUUID();
    this.#session = new DriverSession(this.#mapper, {
      ...options,
      observe: (event) => this.#anchors.observe(event),
    });
    this.events = this.#session.channel;
    // Claude Code reads a message pushed while a turn runs into that turn, at its next step.
    this.#delivery = new TurnDelivery(this.#session, {
      provider: this.provider,
      start: (input) => this.#push(input),
      steer: (input) => this.#push(input),
    });
  }

  async start(): Promise<void> {
    if (this.#query !== undefined) return;
    try {
      const sdk = await importAgentSdk(
        AGENT_PACKAGES.claudeSdk,
        () => import("@anthropic-ai/claude-agent-sdk"),
      );
      this.#session.warnUntestedVersions([AGENT_PACKAGES.claudeSdk]);
      const queryOptions = await this.#queryOptions();
      this.#query = sdk.query({ prompt: this.#prompts, options: queryOptions });
      this.#pump = this.#consume(this.#query);
      await withTimeout(
        this.#query.initializationResult(),
        this.#options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
        "Claude Code did not complete its initialization",
      );
      await this.#settings.readModels(this.#query);
    } catch (error) {
      await this.#fail(`could not start Claude Code: ${messageOf(error)}`);
      throw error;
    }
  }

  /** Pushes the prompt into the session's input stream (see TurnDelivery for `queue` and `steer`). */
  async sendTurn(input: TurnInput): Promise<void> {
    if (this.#query === undefined) throw new Error("claude driver: call start() first");
    if (this.#session.ended || this.#prompts.ended) throw new Error("claude driver: the session has ended");
    await this.#delivery.send(input);
  }

  /** `setModel`, `setPermissionMode` and the effort level (`applyFlagSettings`), for the turns that follow. */
  async configure(settings: SessionSettings): Promise<void> {
    const query = this.#query;
    if (query === undefined) throw new Error("claude driver: call start() first");
    emitConfigured(this.#session, await this.#settings.apply(query, settings));
  }

  async #push(input: TurnInput): Promise<void> {
    const attachments = await resolveAttachments(input, {
      provider: this.provider,
      cwd: this.#options.cwd,
      supported: this.capabilities.attachments,
    });
    if (this.#session.ended || this.#prompts.ended) throw new Error("claude driver: the session has ended");
    const message: SDKUserMessage = {
      type: "user",
      message: {
        role: "user",
        content: claudeContent(input.text, attachments) as SDKUserMessage["message"]["content"],
      },
      parent_tool_use_id: null,
      uuid: randomUUID(),
      session_id: this.#mapper.state.providerSessionId ?? this.#nativeSessionId,
    };
    this.#session.ingest("out", message);
    this.#prompts.push(message);
  }

  async respond(requestId: string, response: RequestResponse): Promise<void> {
    const open = this.#permissions.get(requestId);
    if (open === undefined) throw new UnknownRequestError(requestId);
    open.settle(permissionAnswer(open, response), response.decision);
  }

  async interrupt(): Promise<void> {
    const query = this.#query;
    if (query === undefined || this.#session.ended || this.#mapper.state.turnId === undefined) return;
    const record: InterruptRequestRecord = { type: INTERRUPT_REQUEST, reason: "interrupted by host" };
    this.#session.ingest("out", record);
    this.#cancelPermissions("interrupted by host");
    await withTimeout(query.interrupt(), STOP_GRACE_MS, "interrupt was not acknowledged").catch(
      () => undefined,
    );
  }

  warn(message: string, detail?: Record<string, unknown>): void {
    this.#session.warn(message, detail);
  }

  /** The agent has no thread name of its own: the stream's `thread.metadata.updated` comes from the driver. */
  async rename(title: string): Promise<void> {
    this.#session.renamed(title);
  }

  /** A new query resuming this session with `forkSession`, cut at the turn's last message (`resumeSessionAt`). */
  async fork(options: ForkOptions = {}): Promise<RuntimeDriver> {
    if (this.#query === undefined) throw new Error("claude driver: call start() first");
    const nativeId = this.#mapper.state.providerSessionId ?? this.#nativeSessionId;
    return new ClaudeDriver(
      forkDriverOptions(this.#options, this.sessionId, nativeId, this.#anchors, options, this.#configHome),
    );
  }

  /** Every call resolves once the session has stopped and its dir is gone (a second call waits for the first). */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#stopping = true;
    this.#cancelPermissions("stopped by host");
    this.#prompts.end();
    this.#query?.close();
    this.#abort.abort();
    if (this.#pump !== undefined) await withTimeout(this.#pump, STOP_GRACE_MS, "").catch(() => undefined);
    this.#session.terminate({ kind: "stop", message: "stopped by host" });
    await this.#removeConfigDir();
  }

  /** Once Claude Code has exited (the SDK's close does not wait for it), or after the guard's own deadline. */
  async #removeConfigDir(): Promise<void> {
    await withTimeout(Promise.all(this.#children), HOST_KILL_AFTER_MS, "").catch(() => undefined);
    await this.#configDir.remove();
  }

  async #queryOptions(): Promise<Options> {
    const options = this.#options;
    const mock = options.modelBaseUrl;
    // Against the mock, a model error should surface at once rather than after minutes of back-off.
    const maxRetries = options.maxRetries ?? (mock === undefined ? undefined : 0);
    const own: Record<string, string> = {};
    if (mock !== undefined) {
      // A session dir of our own; the config dir in it unless the host names one (to resume a session later).
      const ownDir = this.#configDir.own(await makePrivateDir("claude-driver-"));
      const given = options.env?.CLAUDE_CONFIG_DIR;
      const configDir = given ?? (await makePrivateSubdir(join(ownDir, "config")));
      if (given === undefined) await seedHome(options.forkOf, configDir);
      this.#configHome = configDir;
      Object.assign(own, { HOME: configDir, ...claudeModelEnv(mock, configDir) });
      own.TMPDIR = await makePrivateSubdir(join(ownDir, "tmp"));
    }
    if (maxRetries !== undefined) own.CLAUDE_CODE_MAX_RETRIES = String(maxRetries);
    const permissionMode = options.permissionMode ?? this.#settings.startMode(options.mode) ?? "default";
    if (permissionMode === "bypassPermissions" && runsAsRoot()) {
      own.IS_SANDBOX = "1";
      warnSandboxAssumed(this.#session);
    }
    const env = agentEnv({ credentials: "claude", mock: mock !== undefined, own, extra: options.env });
    const executable = options.executablePath ?? options.pathToClaudeCodeExecutable;
    const model = options.model ?? (mock === undefined ? undefined : MOCK_MODEL);
    return {
      cwd: options.cwd,
      env,
      includePartialMessages: true,
      forwardSubagentText: options.forwardSubagentText ?? true,
      permissionMode,
      settingSources: [],
      // An ask rule asks even under bypassPermissions: the default one only where tools ask anyway.
      settings: {
        permissions: { ask: options.askTools ?? (permissionMode === "bypassPermissions" ? [] : ["Bash"]) },
      },
      ...(options.allowedTools === undefined ? {} : { allowedTools: options.allowedTools }),
      ...(options.disallowedTools === undefined ? {} : { disallowedTools: options.disallowedTools }),
      // bypassPermissions approves every call before canUseTool is asked (the SDK warns when one is given).
      ...(permissionMode === "bypassPermissions" ? {} : { canUseTool: this.#canUseTool }),
      abortController: this.#abort,
      stderr: (data) => this.#keepStderr(data),
      spawnClaudeCodeProcess: (spawnOptions) => this.#spawnClaudeCode(spawnOptions),
      ...(model === undefined ? {} : { model }),
      ...(options.mcpServers === undefined || options.mcpServers.length === 0
        ? {}
        : {
            mcpServers: claudeMcpServers(options.mcpServers) as NonNullable<Options["mcpServers"]>,
            // over stdin, never on the command line where every local user can read their env and headers
            mcpServersDelivery: "initialize" as const,
          }),
      // The session id is ours to choose, so the host's first prompt already names the thread it opens.
      ...this.#sessionOptions(),
      ...(executable === undefined ? {} : { pathToClaudeCodeExecutable: executable }),
    };
  }

  /** Which Claude session the query opens: a new one with our id, a resumed one, or a fork of one. */
  #sessionOptions(): Partial<Options> {
    const fork = this.#options.forkOf;
    if (fork !== undefined)
      return {
        resume: fork.nativeId,
        forkSession: true,
        sessionId: this.#nativeSessionId,
        ...(fork.nativeTurn === undefined ? {} : { resumeSessionAt: fork.nativeTurn }),
      };
    const resume = this.#options.resume;
    return resume === undefined ? { sessionId: this.#nativeSessionId } : { resume };
  }

  /**
   * Spawns Claude Code as the SDK would, but under the process guard (its group ends with it, and with the host),
   * and watches its stdout: the SDK waits for the process to exit after stdout ends, so a process that closed the
   * pipe but kept running would hang the session. It is ended instead.
   */
  #spawnClaudeCode({ command, args, cwd, env, signal }: SpawnOptions): SpawnedProcess {
    const child = spawnGuarded([command, ...args], {
      env,
      signal,
      cwd,
      cleanup: this.#configDir.path === undefined ? [] : [this.#configDir.path],
      niceness: this.#options.niceness,
    });
    const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
    this.#children.add(exited);
    void exited.then(() => this.#children.delete(exited));
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (data: string) => this.#keepStderr(data));
    child.stdout.once("end", () => {
      setTimeout(() => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        this.#stderr.push("Claude Code closed its stdout while still running");
        child.kill("SIGTERM");
      }, STDOUT_CLOSED_GRACE_MS).unref();
    });
    return child;
  }

  /** A permission call: recorded, mapped to request.opened, and answered when the host responds (or on cancel). */
  readonly #canUseTool: CanUseTool = (toolName, input, callOptions) => {
    const { signal, ...rest } = callOptions;
    this.#requestCount += 1;
    const requestKey = callOptions.requestId ?? callOptions.toolUseID ?? `permission-${this.#requestCount}`;
    const record: PermissionRequestRecord = {
      ...rest,
      type: PERMISSION_REQUEST,
      requestKey,
      toolName,
      input,
    };
    return new Promise<PermissionResult>((resolve) => {
      if (this.#session.ended || this.#stopping) {
        resolve(cancelAnswer("the session is stopping").result as PermissionResult);
        return;
      }
      this.#session.ingest("in", record);
      const requestId = this.#mapper.state.requests.get(requestKey)?.requestId;
      if (requestId === undefined) {
        resolve(cancelAnswer("the permission request could not be opened").result as PermissionResult);
        return;
      }
      const onAbort = () => open.settle(cancelAnswer("Claude aborted the request"), "cancel", "aborted");
      const open: OpenPermission = {
        requestKey,
        toolName,
        input,
        suggestions: callOptions.suggestions,
        settle: (answer, decision, reason) => {
          if (!this.#permissions.delete(requestId)) return;
          signal.removeEventListener("abort", onAbort);
          const decisionRecord: PermissionDecisionRecord = {
            type: PERMISSION_DECISION,
            requestKey,
            decision,
            result: answer.result,
            ...(answer.answers === undefined ? {} : { answers: answer.answers }),
            ...(reason === undefined ? {} : { reason }),
          };
          this.#session.ingest("out", decisionRecord);
          resolve(answer.result as PermissionResult);
        },
      };
      this.#permissions.set(requestId, open);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
  };

  #cancelPermissions(reason: string): void {
    for (const open of [...this.#permissions.values()]) open.settle(cancelAnswer(reason), "cancel", reason);
  }

  /** Feeds every SDK message to the session; the stream ending without a stop means Claude Code died. */
  async #consume(query: Query): Promise<void> {
    try {
      for await (const message of query) {
        if (this.#session.ended) break;
        const keepsUp = this.#session.ingest("in", message);
        if (!keepsUp && !this.#session.ended) await this.#session.channel.drained(this.#abort.signal);
      }
      if (!this.#stopping) await this.#fail(`Claude Code exited${this.#stderrTail()}`);
    } catch (error) {
      if (!this.#stopping) await this.#fail(`Claude Code failed: ${messageOf(error)}${this.#stderrTail()}`);
    }
  }

  async #fail(message: string): Promise<void> {
    if (this.#session.ended) return;
    this.#cancelPermissions(message);
    this.#session.terminate({ kind: "crash", message });
    this.#prompts.end();
    this.#query?.close();
    await this.#removeConfigDir();
  }

  #keepStderr(data: string): void {
    for (const line of data.split("\n")) if (line.trim().length > 0) this.#stderr.push(line);
    if (this.#stderr.length > STDERR_LINES) this.#stderr.splice(0, this.#stderr.length - STDERR_LINES);
  }

  #stderrTail(): string {
    return this.#stderr.length === 0 ? "" : ` (stderr: ${this.#stderr.slice(-3).join(" | ")})`;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
