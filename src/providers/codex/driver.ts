import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import {
  type DriverCapabilities,
  type DriverOptions,
  type ForkOptions,
  type RequestResponse,
  type RuntimeDriver,
  type SessionSettings,
  type TurnInput,
  UnknownRequestError,
} from "../../contracts/driver.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { agentEnv } from "../../drivers/agent-env.js";
import { AGENT_PACKAGES, codexCommand } from "../../drivers/agent-programs.js";
import { resolveAttachments } from "../../drivers/attachments.js";
import { AwaitedCalls } from "../../drivers/awaited-calls.js";
import { capabilitiesOf } from "../../drivers/capabilities.js";
import { DriverSession, sessionIdFor } from "../../drivers/driver-session.js";
import { TurnAnchors } from "../../drivers/fork-anchors.js";
import { forkDriverOptions, seedHome } from "../../drivers/fork-options.js";
import { writeCodexHome } from "../../drivers/model-config.js";
import {
  agentPidOf,
  checkedNiceness,
  HOST_KILL_AFTER_MS,
  killAgentGroup,
  spawnGuarded,
} from "../../drivers/process-guard.js";
import type { CodexDriverOptions } from "../../drivers/provider-options.js";
import { emitConfigured } from "../../drivers/settings.js";
import { makePrivateDir, makePrivateSubdir, OwnedDir } from "../../drivers/temp-dirs.js";
import { TurnDelivery } from "../../drivers/turn-delivery.js";
import { idKey, isObject, type JsonObject, str } from "../../kit/guards.js";
import { CodexAppServerMapper } from "./app-server-mapper.js";
import { nativeAnswer } from "./approval-answers.js";
import { codexUserInput } from "./command-surface.js";
import { codexForkAnchor } from "./fork-anchor.js";
import { CodexSettings } from "./settings.js";
import { StdioLines } from "./stdio-lines.js";

const DEFAULT_START_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 60_000;

interface PendingCall {
  method: string;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface OpenServerRequest {
  /** The JSON-RPC id exactly as the server sent it (number or string). */
  nativeId: unknown;
  requestKey: string;
  method: string;
  params: JsonObject;
}

/** `options.agentCommand` replaces the command line (tests wrap the real binary); it must start an app-server. */
function defaultCommand(options: DriverOptions): string[] {
  return [...codexCommand(options.executablePath), "app-server"];
}

/** The real `codex app-server` of the pinned `@openai/codex`, driven over JSON-RPC on stdio. */
export function createCodexDriver(options: CodexDriverOptions): CodexAppServerDriver {
  return new CodexAppServerDriver(options);
}

export class CodexAppServerDriver implements RuntimeDriver {
  readonly provider = "codex" as const;
  readonly sessionId: string;
  readonly capabilities: DriverCapabilities = capabilitiesOf("codex");
  readonly #session: DriverSession;
  readonly #mapper: CodexAppServerMapper;
  readonly #calls = new Map<string, PendingCall>();
  readonly #serverRequests = new Map<string, OpenServerRequest>();
  readonly #anchors = new TurnAnchors(codexForkAnchor);
  #child: ChildProcessWithoutNullStreams | undefined;
  #lines: StdioLines | undefined;
  #nextId = 1;
  #threadId: string | undefined;
  #turnId: string | undefined;
  /** The latest turn/start call, settled (an interrupt waits for the id it brings). */
  #turnStarting: Promise<unknown> | undefined;
  readonly #tempHome = new OwnedDir();
  #stderrTail = "";
  #stopping = false;
  #exited: Promise<void> = Promise.resolve();
  readonly #delivery: TurnDelivery;
  readonly #settings: CodexSettings;

  constructor(readonly options: DriverOptions) {
    checkedNiceness(options.niceness);
    this.sessionId = sessionIdFor(options);
    this.#mapper = new CodexAppServerMapper({
      sessionId: this.sessionId,
      sequenceAfter: options.sequenceAfter,
    });
    this.#session = new DriverSession(this.#mapper, {
      ...options,
      awaitedCalls: new AwaitedCalls(),
      observe: (event) => this.#anchors.observe(event),
    });
    this.#settings = new CodexSettings(this.capabilities, options);
    this.#delivery = new TurnDelivery(this.#session, {
      provider: this.provider,
      start: (input) => this.#startTurn(input),
      steer: (input) => this.#steer(input),
    });
  }

  get events(): AsyncIterable<RuntimeEvent> {
    return this.#session.channel;
  }

  /** The app-server's process id while it runs (its process group's id; the guard's own pid is not it). */
  get pid(): number | undefined {
    return this.#child === undefined ? undefined : agentPidOf(this.#child);
  }

  /** The native thread id (for `resume`), once the thread has started. */
  get threadId(): string | undefined {
    return this.#threadId;
  }

  async start(): Promise<void> {
    const timeoutMs = this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    try {
      // The installed program's version, when it is the installed one that runs.
      if (this.options.executablePath === undefined && this.options.agentCommand === undefined)
        this.#session.warnUntestedVersions([AGENT_PACKAGES.codex]);
      await this.#spawn();
      await this.#call(
        "initialize",
        {
          clientInfo: { name: "provider-runtime", title: "provider-runtime", version: "0.1.0" },
          capabilities: { experimentalApi: false },
        },
        timeoutMs,
      );
      this.#send({ method: "initialized" });
      await this.#settings.readModels((method, params) => this.#call(method, params, timeoutMs));
      const threadParams = this.#settings.threadParams();
      const fork = this.options.forkOf;
      const opened =
        fork !== undefined
          ? await this.#call(
              "thread/fork",
              {
                threadId: fork.nativeId,
                ...threadParams,
                ...(fork.nativeTurn === undefined ? {} : { lastTurnId: fork.nativeTurn }),
              },
              timeoutMs,
            )
          : this.options.resume !== undefined
            ? await this.#call("thread/resume", { threadId: this.options.resume, ...threadParams }, timeoutMs)
            : await this.#call("thread/start", threadParams, timeoutMs);
      const thread = isObject(opened.thread) ? opened.thread : {};
      this.#threadId = str(thread.id);
      if (this.#threadId === undefined) throw new Error("codex app-server returned no thread id");
    } catch (error) {
      this.#fail(`codex app-server handshake failed: ${messageOf(error)}`);
      throw error;
    }
  }

  async sendTurn(input: TurnInput): Promise<void> {
    if (this.#threadId === undefined) throw new Error("the session has not started");
    await this.#delivery.send(input);
  }

  /** Model, mode (approval and sandbox policy) and effort as `turn/start` overrides of the next turn. */
  async configure(settings: SessionSettings): Promise<void> {
    const { checked, overrides } = this.#settings.apply(settings);
    emitConfigured(this.#session, checked, { turnStartOverrides: overrides });
  }

  async #startTurn(input: TurnInput): Promise<void> {
    if (this.#threadId === undefined) throw new Error("the session has not started");
    const attachments = await this.#attachments(input);
    const starting = this.#call("turn/start", {
      threadId: this.#threadId,
      input: codexUserInput(input.text, attachments),
      ...this.#settings.overrides,
    });
    this.#turnStarting = starting.catch(() => undefined);
    const result = await starting;
    const turn = isObject(result.turn) ? result.turn : {};
    this.#turnId = str(turn.id) ?? this.#turnId;
  }

  /** `turn/steer`: Codex puts the input into the running turn at once (a `userMessage` item of it). */
  async #steer(input: TurnInput): Promise<void> {
    await this.#turnStarting;
    if (this.#threadId === undefined || this.#turnId === undefined) return this.#startTurn(input);
    const attachments = await this.#attachments(input);
    await this.#call("turn/steer", {
      threadId: this.#threadId,
      expectedTurnId: this.#turnId,
      input: codexUserInput(input.text, attachments),
    });
  }

  #attachments(input: TurnInput) {
    return resolveAttachments(input, {
      provider: this.provider,
      cwd: this.options.cwd,
      supported: this.capabilities.attachments,
    });
  }

  async respond(requestId: string, response: RequestResponse): Promise<void> {
    const open = this.#serverRequests.get(requestId);
    const stillOpen =
      open !== undefined &&
      !this.#session.ended &&
      this.#mapper.state.requests.get(open.requestKey)?.id === requestId;
    if (open === undefined || !stillOpen) {
      this.#serverRequests.delete(requestId);
      throw new UnknownRequestError(requestId);
    }
    this.#serverRequests.delete(requestId);
    this.#send({ id: open.nativeId, ...nativeAnswer(open.method, open.params, response) });
  }

  /** Interrupts the running turn; one asked for but not yet started is interrupted once it has its id. */
  async interrupt(): Promise<void> {
    await this.#turnStarting;
    if (this.#threadId === undefined || this.#turnId === undefined) return;
    await this.#call("turn/interrupt", { threadId: this.#threadId, turnId: this.#turnId });
  }

  warn(message: string, detail?: Record<string, unknown>): void {
    this.#session.warn(message, detail);
  }

  /** `thread/name/set`: the app-server answers with `thread/name/updated`, the stream's `thread.metadata.updated`. */
  async rename(title: string): Promise<void> {
    if (this.#threadId === undefined) throw new Error("the session has not started");
    await this.#call("thread/name/set", { threadId: this.#threadId, name: title });
  }

  /** A new app-server on a `thread/fork` of this thread through the turn (`lastTurnId`). */
  async fork(options: ForkOptions = {}): Promise<RuntimeDriver> {
    if (this.#threadId === undefined) throw new Error("the session has not started");
    const home =
      this.options.env?.CODEX_HOME ??
      (this.#tempHome.path === undefined ? undefined : join(this.#tempHome.path, "home"));
    return new CodexAppServerDriver(
      forkDriverOptions(this.options, this.sessionId, this.#threadId, this.#anchors, options, home),
    );
  }

  async stop(): Promise<void> {
    if (!this.#session.ended)
      this.#session.terminate({ kind: "stop", message: "session stopped by the host" });
    this.#stopping = true;
    this.#shutdown("session stopped");
    await this.#exited;
    await this.#tempHome.remove();
  }

  async #spawn(): Promise<void> {
    const own: Record<string, string> = {};
    if (this.options.modelBaseUrl !== undefined) {
      // A caller's CODEX_HOME is kept (so a later session can resume its thread); ours is removed at the end.
      const given = this.options.env?.CODEX_HOME;
      const session = this.#tempHome.own(await makePrivateDir("provider-runtime-codex-"));
      const home = given ?? join(session, "home");
      if (given === undefined) await seedHome(this.options.forkOf, home);
      // HOME too: a login shell would otherwise read the user's profile into command output. TMPDIR: the
      // agent's temp files go with the session, also with a caller's CODEX_HOME (its sandbox helper keeps a
      // registry of mount targets there, which would otherwise be left in the host's TMPDIR).
      // Approval policy and sandbox go in thread/start: 0.171.0 refuses `approval_policy = "untrusted"` in config.
      Object.assign(
        own,
        { HOME: home },
        { TMPDIR: await makePrivateSubdir(join(session, "tmp")) },
        await writeCodexHome(
          home,
          this.options.modelBaseUrl,
          // Against the mock, a model error should surface at once, not after Codex's five back-off retries.
          {
            requestMaxRetries: 0,
            streamMaxRetries: 0,
            ...(this.options.model !== undefined ? { model: this.options.model } : {}),
          },
        ),
      );
    }
    const mock = this.options.modelBaseUrl !== undefined;
    const env = agentEnv({ credentials: "codex", mock, own, extra: this.options.env });
    const command = this.options.agentCommand ?? defaultCommand(this.options);
    const child = spawnGuarded(command, {
      cwd: this.options.cwd,
      env,
      cleanup: this.#tempHome.path === undefined ? [] : [this.#tempHome.path],
      niceness: this.options.niceness,
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => {
      child.once("close", () => resolve());
      child.once("error", () => resolve());
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      this.#stderrTail = (this.#stderrTail + chunk).slice(-4_000);
    });
    child.stdin.on("error", () => undefined);
    child.once("error", (error) => this.#fail(`could not run codex app-server: ${error.message}`));
    child.once("exit", (code, signal) => {
      if (this.#stopping) return;
      const tail = this.#stderrTail.trim().split("\n").slice(-1)[0] ?? "";
      this.#fail(
        `codex app-server exited (code ${code ?? "none"}, signal ${signal ?? "none"}) ${tail}`.trim(),
      );
    });
    this.#lines = new StdioLines(child, {
      message: (value) => this.#receive(value),
      garbage: (text) => {
        this.#session.ingestGarbage(text);
        this.#fail("codex app-server wrote a line that is not JSON-RPC");
      },
      // The pipe closed: normally the process is exiting (its exit reports the code); if it is still running
      // after a moment, nothing more can arrive and the session must not wait forever.
      end: () => {
        setTimeout(() => this.#fail("codex app-server closed its stdout while still running"), 500).unref();
      },
    });
  }

  #receive(value: unknown): void {
    if (this.#session.ended) return;
    const msg = isObject(value) ? value : undefined;
    const method = str(msg?.method);
    const id = idKey(msg?.id);
    if (msg !== undefined && method === undefined && id !== undefined) this.#settleCall(id, msg);
    if (method === "turn/started" && isObject(msg?.params) && isObject(msg.params.turn))
      this.#turnId = str(msg.params.turn.id) ?? this.#turnId;
    // an ended turn is not interrupted (codex answers an error for it)
    if (method === "turn/completed" && isObject(msg?.params) && isObject(msg.params.turn))
      if (str(msg.params.turn.id) === this.#turnId) this.#turnId = undefined;
    const keepReading = this.#session.ingest("in", value);
    if (msg !== undefined && method !== undefined && id !== undefined)
      this.#trackServerRequest(msg, method, id);
    if (!keepReading && this.#lines !== undefined) {
      const lines = this.#lines;
      lines.pause();
      this.#session.channel.onDrain(() => lines.resume());
    }
  }

  /** Remembers a server request under the canonical id the mapper gave it, for `respond`. */
  #trackServerRequest(msg: JsonObject, method: string, nativeKey: string): void {
    const requestKey = this.#mapper.state.openRequestByNativeId.get(nativeKey);
    const open = requestKey === undefined ? undefined : this.#mapper.state.requests.get(requestKey);
    if (requestKey === undefined || open === undefined) return;
    const params = isObject(msg.params) ? msg.params : {};
    this.#serverRequests.set(open.id, { nativeId: msg.id, requestKey, method, params });
  }

  #settleCall(id: string, msg: JsonObject): void {
    const call = this.#calls.get(id);
    if (call === undefined) return;
    this.#calls.delete(id);
    clearTimeout(call.timer);
    if (isObject(msg.error)) call.reject(new Error(`${call.method}: ${str(msg.error.message) ?? "error"}`));
    else call.resolve(isObject(msg.result) ? msg.result : {});
  }

  #call(method: string, params: JsonObject, timeoutMs = REQUEST_TIMEOUT_MS): Promise<JsonObject> {
    if (this.#session.ended) return Promise.reject(new Error(`session ended; cannot send ${method}`));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#calls.delete(String(id));
        this.#session.abandonCall(id);
        reject(new Error(`${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.#calls.set(String(id), { method, resolve, reject, timer });
      this.#send({ id, method, params });
    });
  }

  /** Every message we send is recorded (and mapped) before it is written. */
  #send(msg: JsonObject): void {
    if (this.#session.ended) return;
    this.#session.ingest("out", msg);
    this.#lines?.send(msg);
  }

  /** A fatal transport failure: close everything (turn failed, requests cancelled) and end the process. */
  #fail(message: string): void {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#session.terminate({ kind: "crash", message });
    this.#shutdown(message);
    void this.#exited.then(() => this.#tempHome.remove());
  }

  #shutdown(reason: string): void {
    this.#lines?.close();
    for (const [id, call] of this.#calls) {
      clearTimeout(call.timer);
      call.reject(new Error(`${call.method} abandoned: ${reason}`));
      this.#calls.delete(id);
    }
    this.#serverRequests.clear();
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    // The guard ends the agent's whole group (SIGKILL after its grace); killing the guard is the last resort.
    child.kill("SIGTERM");
    const killer = setTimeout(() => {
      child.kill("SIGKILL");
      killAgentGroup(child);
    }, HOST_KILL_AFTER_MS);
    killer.unref();
    child.once("close", () => clearTimeout(killer));
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
