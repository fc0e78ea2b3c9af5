import {
  type DriverOptions,
  type DriverProvider,
  type RequestResponse,
  UnsupportedError,
} from "../../contracts/driver.js";
import type { DriverSession } from "../../drivers/driver-session.js";
import { isObject, type JsonObject, str } from "../../kit/guards.js";
import type { AgentProcess } from "./agent-process.js";
import { ADVERTISED_CLIENT_CAPABILITIES } from "./client-capabilities.js";
import { elicitationResult } from "./elicitation-answers.js";
import type { AcpMapper } from "./mapper.js";
import { mcpServersRefusal } from "./mcp-transports.js";
import { outcomeForDecision } from "./permission-options.js";
import type { AcpProfile } from "./profile.js";
import { type AcpContentBlock, type AcpSessionOffer, acpMcpServers, offerOf } from "./session-offer.js";
import { ACP_ERROR } from "./wire.js";
import { tappedAgentStream } from "./wire-tap.js";

type Sdk = typeof import("@agentclientprotocol/sdk/unstable");
type InitializeRequest = import("@agentclientprotocol/sdk/unstable").InitializeRequest;
type ClientConnection = ReturnType<ReturnType<Sdk["client"]>["connect"]>;

export interface ConnectionHooks {
  /** Waits for the host's answer to the canonical request `requestId`. */
  askHost(requestId: string): Promise<RequestResponse>;
}

const CLIENT_INFO = { name: "provider-runtime", title: "provider-runtime", version: "0.1.0" };

/** The ACP conversation: the SDK client app, its tapped stream, and the calls a driver makes. */
export class AcpConnection {
  readonly #connection: ClientConnection;
  readonly #profile: AcpProfile;
  #nativeSessionId: string | undefined;
  /** What the agent offered at the handshake: prompt content kinds, modes, models, config options. */
  offer: AcpSessionOffer = offerOf(undefined, undefined);
  /** The agent's `initialize` answer. */
  init: unknown;
  #lastWrite: Promise<unknown> = Promise.resolve();

  constructor(
    sdk: Sdk,
    agent: AgentProcess,
    session: DriverSession,
    mapper: AcpMapper,
    profile: AcpProfile,
    hooks: ConnectionHooks,
  ) {
    this.#profile = profile;
    const stream = tappedAgentStream(sdk, agent, {
      inbound: (message) => {
        if (session.ingest("in", message)) return undefined;
        return session.channel.drained();
      },
      outbound: (message) => {
        session.ingest("out", message);
      },
      garbage: (line) => {
        session.ingestGarbage(line);
      },
    });
    const ask = async (jsonRpcId: string | number | null): Promise<RequestResponse> => {
      const requestId = jsonRpcId === null ? undefined : mapper.openRequestIdFor(jsonRpcId);
      return requestId === undefined ? { decision: "cancel" } : hooks.askHost(requestId);
    };
    const passThrough = (params: unknown) => params;
    let app = sdk
      .client({ name: CLIENT_INFO.name })
      .onNotification("*", () => {})
      .onRequest("session/request_permission", async ({ params, requestId }) => {
        const response = await ask(requestId);
        return {
          outcome: outcomeForDecision(params.options, response.decision, preferredOptionId(response)),
        };
      })
      .onRequest("elicitation/create", async ({ params, requestId }) => {
        const response = await ask(requestId);
        return elicitationResult(params as JsonObject, response) as never;
      });
    if (profile.name === "cursor") {
      // Unverified shapes (Cursor's docs): questions and plans wait for the host; the rest is acknowledged.
      app = app
        .onRequest("cursor/ask_question", passThrough, async ({ requestId }) => {
          const response = await ask(requestId);
          return response.decision === "cancel" ? { cancelled: true } : { answers: response.answers ?? {} };
        })
        .onRequest("cursor/create_plan", passThrough, async ({ requestId }) => {
          const response = await ask(requestId);
          return { accepted: response.decision === "accept" || response.decision === "acceptForSession" };
        });
      for (const method of ["cursor/update_todos", "cursor/task", "cursor/generate_image"]) {
        app = app.onRequest(method, passThrough, () => ({})).onNotification(method, passThrough, () => {});
      }
    }
    const tracked: typeof stream = {
      readable: stream.readable,
      writable: new WritableStream({
        write: (message) => {
          const writer = stream.writable.getWriter();
          const written = writer.write(message).finally(() => writer.releaseLock());
          this.#lastWrite = written.catch(() => {});
          return written;
        },
      }),
    };
    this.#connection = app.connect(tracked);
  }

  get nativeSessionId(): string | undefined {
    return this.#nativeSessionId;
  }

  /**
   * initialize → authenticate (when the agent needs it) → session/new, session/load or (a fork) session/fork →
   * session/set_mode to `sessionMode` when the agent offers that mode and the session is in another. A fork of an
   * agent that does not advertise `session/fork` is an UnsupportedError of `provider`.
   */
  async handshake(
    options: DriverOptions,
    timeoutMs: number,
    sessionMode?: string,
    provider: DriverProvider = "acp",
  ): Promise<void> {
    await withTimeout(
      this.#handshake(options, sessionMode, provider),
      timeoutMs,
      "the agent did not complete the ACP handshake",
    );
  }

  async #handshake(
    options: DriverOptions,
    sessionMode: string | undefined,
    provider: DriverProvider,
  ): Promise<void> {
    const agent = this.#connection.agent;
    const initialize: InitializeRequest = {
      protocolVersion: 1,
      clientCapabilities: ADVERTISED_CLIENT_CAPABILITIES,
      clientInfo: CLIENT_INFO,
    };
    const init = await agent.request("initialize", initialize);
    this.init = init;
    const fork = options.forkOf;
    if (fork !== undefined && !offerOf(init, undefined).fork)
      throw new UnsupportedError(provider, "fork", forkNotOffered(init));
    const mcpRefusal = mcpServersRefusal(init, options.mcpServers, agentNameOf(init));
    if (mcpRefusal !== undefined) throw new UnsupportedError(provider, "take these MCP servers", mcpRefusal);
    const authMethods = (init.authMethods ?? []).map((method) => method.id);
    const authenticate = async () => {
      const methodId = authMethods[0];
      if (methodId !== undefined) await agent.request("authenticate", { methodId });
    };
    // Cursor documents `cursor_login` as required before a session; others say so with -32000.
    if (this.#profile.name === "cursor" && authMethods.includes("cursor_login")) {
      await agent.request("authenticate", { methodId: "cursor_login" });
    }
    const mcpServers = acpMcpServers(options.mcpServers) as import("@agentclientprotocol/sdk").McpServer[];
    const open = async (): Promise<{ sessionId: string; modes: unknown; session: unknown }> => {
      if (fork !== undefined) {
        const forked = await agent.request("session/fork", {
          sessionId: fork.nativeId,
          cwd: options.cwd,
          mcpServers,
        });
        return { sessionId: forked.sessionId, modes: forked.modes, session: forked };
      }
      if (options.resume !== undefined) {
        const loaded = await agent.request("session/load", {
          sessionId: options.resume,
          cwd: options.cwd,
          mcpServers,
        });
        return { sessionId: options.resume, modes: loaded?.modes, session: loaded };
      }
      const created = await agent.request("session/new", { cwd: options.cwd, mcpServers });
      return { sessionId: created.sessionId, modes: created.modes, session: created };
    };
    let opened: { sessionId: string; modes: unknown; session: unknown };
    try {
      opened = await open();
    } catch (error) {
      if (codeOf(error) !== ACP_ERROR.authRequired || authMethods.length === 0) throw error;
      await authenticate();
      opened = await open();
    }
    this.#nativeSessionId = opened.sessionId;
    this.offer = offerOf(init, opened.session);
    if (sessionMode !== undefined && needsModeChange(opened.modes, sessionMode)) {
      await agent.request("session/set_mode", { sessionId: opened.sessionId, modeId: sessionMode });
      this.offer.currentModeId = sessionMode;
    }
  }

  /** `session/set_mode`. */
  async setMode(modeId: string): Promise<void> {
    const sessionId = this.#requireSession();
    await this.#connection.agent.request("session/set_mode", { sessionId, modeId });
    this.offer.currentModeId = modeId;
  }

  /** `session/set_config_option` of a select option (the model, the thought level). */
  async setConfigOption(configId: string, value: string): Promise<void> {
    const sessionId = this.#requireSession();
    await this.#connection.agent.request("session/set_config_option", {
      sessionId,
      configId,
      value,
    } as never);
  }

  /** Sends the prompt (text, images, resources); the answer (stopReason) arrives through the tap and ends the turn. */
  prompt(content: readonly AcpContentBlock[]): void {
    const sessionId = this.#requireSession();
    this.#connection.agent.request("session/prompt", { sessionId, prompt: content as never }).catch(() => {
      // An error answer is mapped from the wire (runtime.error + failed turn); a closed connection by the driver.
    });
  }

  /**
   * Asks the agent to cancel the turn. The spec makes session/cancel a notification; Cursor only answers it as a
   * request (with -32601). Returns true when the agent said it cannot cancel.
   */
  async cancel(): Promise<boolean> {
    const sessionId = this.#requireSession();
    const agent = this.#connection.agent;
    if (this.#profile.name !== "cursor") {
      await agent.notify("session/cancel", { sessionId });
      return false;
    }
    try {
      await withTimeout(agent.request("session/cancel", { sessionId }), 5_000, "session/cancel timed out");
      return false;
    } catch (error) {
      return codeOf(error) === ACP_ERROR.methodNotFound;
    }
  }

  /** Resolves once everything written so far has reached the agent's stdin. */
  async flush(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    await this.#lastWrite;
  }

  close(): void {
    this.#connection.close();
  }

  #requireSession(): string {
    if (this.#nativeSessionId === undefined) throw new Error("no ACP session: start() first");
    return this.#nativeSessionId;
  }
}

/** Why the agent that answered `init` cannot fork, naming it. */
export function forkNotOffered(init: unknown): string {
  return `${agentNameOf(init)} does not offer session/fork (no agentCapabilities.sessionCapabilities.fork in its initialize answer)`;
}

function agentNameOf(init: unknown): string {
  const info = isObject(init) && isObject(init.agentInfo) ? init.agentInfo : {};
  const name = str(info.title) ?? str(info.name);
  if (name === undefined) return "the agent";
  const version = str(info.version);
  return `the agent ${name}${version === undefined ? "" : ` ${version}`}`;
}

/** The session offers `modeId` and is in another mode. */
function needsModeChange(modes: unknown, modeId: string): boolean {
  if (!isObject(modes) || modes.currentModeId === modeId) return false;
  const available = Array.isArray(modes.availableModes) ? modes.availableModes : [];
  return available.some((mode) => isObject(mode) && mode.id === modeId);
}

function preferredOptionId(response: RequestResponse): string | undefined {
  return isObject(response.payload) ? str(response.payload.optionId) : undefined;
}

function codeOf(error: unknown): number | undefined {
  return isObject(error) && typeof error.code === "number" ? error.code : undefined;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
