import { closeSync, createWriteStream, fchmodSync, openSync, rmSync, type WriteStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { DriverOptions, DriverProvider, RuntimeDriver } from "../../contracts/driver.js";
import { type DirGuard, guardDirs } from "../../drivers/dir-guard.js";
import { createDriver, DRIVER_PROVIDERS, isDriverProvider } from "../../drivers/index.js";
import { mockOptionsForAgent } from "../../mock-model/agent-scripts.js";
import { knownAcpAgentIn } from "../../providers/acp/agent-commands.js";
import { resolveAcpAgent } from "../commands/acp-agent.js";
import { type CliIo, UsageError } from "../usage.js";
import type { ApprovalPolicy } from "./approval-queue.js";

/** The flags `run` and `chat` share. */
export const SESSION_FLAGS = {
  provider: { type: "string" },
  mock: { type: "boolean" },
  agent: { type: "string" },
  cwd: { type: "string" },
  model: { type: "string" },
  approve: { type: "string" },
  record: { type: "string" },
  json: { type: "boolean" },
  "session-id": { type: "string" },
} as const;

export const SESSION_HELP = `  --mock                 start the built-in mock model server (offline); the prompt's mock:<scenario> picks the script
  --agent CMD            the ACP agent: a command line, or claude-agent-acp | codex-acp | opencode | copilot
                         (--provider acp)
  --cwd DIR              the agent's working directory (default: a fresh temp dir with --mock, else the current dir)
  --model NAME           the model to ask for
  --approve MODE         ask (default when stdin is a terminal) | accept | decline (default off a terminal);
                         questions are asked with ask and declined otherwise
  --record FILE          write the native transcript (JSONL) to FILE, readable by you only
  --json                 canonical events as JSONL instead of the timeline
  --session-id ID        the canonical session id
`;

export interface SessionFlags {
  provider?: string;
  mock?: boolean;
  agent?: string;
  cwd?: string;
  model?: string;
  approve?: string;
  record?: string;
  "session-id"?: string;
}

export interface SessionPlan {
  provider: DriverProvider;
  policy: ApprovalPolicy;
  flags: SessionFlags;
}

/** Why a provider cannot honour an approval policy other than `accept`, for those that cannot ask. */
const CANNOT_ASK: Partial<Record<DriverProvider, string>> = {
  "codex-sdk":
    "codex exec has no approval channel: it runs every command in its sandbox without asking. " +
    "Pass --approve accept to run it that way, or use --provider codex to be asked",
};

/** Checks the flags before anything starts: provider, policy (ask needs a terminal), the ACP agent. */
export function planSession(flags: SessionFlags, io: CliIo, command: string): SessionPlan {
  const provider = flags.provider;
  if (provider === undefined || !isDriverProvider(provider)) {
    throw new UsageError(`${command} needs --provider ${DRIVER_PROVIDERS.join("|")}`);
  }
  if (provider === "acp" && flags.agent === undefined)
    throw new UsageError("--provider acp needs --agent CMD");
  const stdinIsTTY = io.stdinIsTTY === true;
  const policy = flags.approve ?? (stdinIsTTY ? "ask" : "decline");
  if (policy !== "ask" && policy !== "accept" && policy !== "decline") {
    throw new UsageError(`--approve must be ask, accept or decline, not "${policy}"`);
  }
  const cannotAsk = CANNOT_ASK[provider];
  if (cannotAsk !== undefined && policy !== "accept") {
    throw new UsageError(`--provider ${provider} cannot honour --approve ${policy}: ${cannotAsk}`);
  }
  if (policy === "ask" && !stdinIsTTY) {
    throw new UsageError("--approve ask needs stdin to be a terminal; use --approve accept or decline");
  }
  return { provider, policy, flags };
}

/** A started mock model, a scratch dir, a record file and the driver: everything `close()` undoes. */
export class AgentSession {
  #driver: RuntimeDriver | undefined;
  #scratch: string | undefined;
  #record: WriteStream | undefined;
  #mock: { baseUrl: string; close(): Promise<void> } | undefined;
  #scratchGuard: DirGuard | undefined;
  #closed = false;

  get driver(): RuntimeDriver {
    if (this.#driver === undefined) throw new Error("the session has no driver yet");
    return this.#driver;
  }

  /** Builds the driver (not started). On failure, whatever was made is undone. */
  static async open(plan: SessionPlan, io: CliIo): Promise<AgentSession> {
    const session = new AgentSession();
    try {
      await session.#open(plan, io);
      return session;
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  async #open({ provider, flags }: SessionPlan, io: CliIo): Promise<void> {
    if (flags.mock) this.#mock = await startMock(flags.agent);
    const cwd = flags.cwd ? resolve(flags.cwd) : this.#mock ? await this.#scratchDir() : process.cwd();
    const options: DriverOptions = { cwd };
    if (this.#mock) options.modelBaseUrl = this.#mock.baseUrl;
    if (flags.model !== undefined) options.model = flags.model;
    if (flags["session-id"] !== undefined) options.sessionId = flags["session-id"];
    if (flags.agent !== undefined) {
      const stateDir = this.#mock ? join(await this.#scratchDir(), "agent-state") : undefined;
      if (stateDir !== undefined) await mkdir(stateDir);
      const launch = await resolveAcpAgent(flags.agent, this.#mock?.baseUrl, stateDir);
      if (launch.warning !== undefined) io.stderr.write(`provider-runtime: ${launch.warning}\n`);
      options.agentCommand = launch.command;
      options.env = launch.env;
    }
    if (flags.record !== undefined) {
      const record = privateFile(flags.record);
      this.#record = record;
      options.record = (line) => record.write(`${line}\n`);
    }
    this.#driver = stopsOnce(await createDriver(provider, options));
  }

  async #scratchDir(): Promise<string> {
    if (this.#scratch === undefined) {
      this.#scratch = await mkdtemp(join(tmpdir(), "provider-runtime-run-"));
      // the agents' guards remove their own dirs if this process is killed; this one removes the scratch dir
      this.#scratchGuard = guardDirs([this.#scratch]);
    }
    return this.#scratch;
  }

  /**
   * Goes on on a fork of the session after `afterTurnId` (chat's `/fork`): the fork's agent is started (its own
   * copy of the conversation), then the parent's is stopped; the fork is the session's driver from then on.
   */
  async fork(afterTurnId: string | undefined): Promise<RuntimeDriver> {
    const parent = this.driver;
    const fork = stopsOnce(await parent.fork(afterTurnId === undefined ? {} : { afterTurnId }));
    await fork.start();
    this.#driver = fork;
    await parent.stop();
    return fork;
  }

  /** Stops the driver if it runs, ends the record, closes the mock, removes the scratch dir. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#driver?.stop().catch(() => undefined);
    const record = this.#record;
    if (record !== undefined) await new Promise<void>((done) => record.end(done));
    await this.#mock?.close().catch(() => undefined);
    if (this.#scratch !== undefined) await rm(this.#scratch, { recursive: true, force: true });
    this.#scratchGuard?.release();
  }

  /** The last resort when stopping hangs (a second signal): remove the scratch dir before the process exits. */
  removeScratchNow(): void {
    if (this.#scratch !== undefined) rmSync(this.#scratch, { recursive: true, force: true });
    this.#scratchGuard?.release();
  }
}

/**
 * The driver, with every `stop` call answered by the first call's promise. The session stops its driver from
 * several places (the end of `run`'s turn, a stop signal, `close`), and a driver's second `stop` may resolve
 * while the first is still removing the driver's temp dirs: awaiting it then, the CLI could exit before they
 * are gone.
 */
function stopsOnce(driver: RuntimeDriver): RuntimeDriver {
  const stop = driver.stop.bind(driver);
  let stopping: Promise<void> | undefined;
  driver.stop = () => {
    stopping ??= stop();
    return stopping;
  };
  return driver;
}

/** A file only its owner can read: created 0600, and made 0600 when it already existed. */
function privateFile(path: string): WriteStream {
  const fd = openSync(path, "w", 0o600);
  try {
    fchmodSync(fd, 0o600);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return createWriteStream("", { fd });
}

/** The mock model, played as a known ACP agent in `agent` needs it (codex-acp's shell call asks for approval). */
async function startMock(
  agent: string | undefined,
): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const { startMockModel } = await import("../../mock-model/index.js");
  const server = await startMockModel(
    mockOptionsForAgent(agent === undefined ? undefined : knownAcpAgentIn(agent)),
  );
  return { baseUrl: server.baseUrl, close: async () => server.close() };
}
