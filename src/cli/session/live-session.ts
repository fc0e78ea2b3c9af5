import type { RuntimeDriver } from "../../contracts/driver.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { ConversationRenderer } from "../../view/conversation.js";
import { escapeControls } from "../../view/terminal-text.js";
import { TimelineRenderer } from "../../view/timeline.js";
import type { CliIo } from "../usage.js";
import { AgentSession, type SessionPlan } from "./agent-session.js";
import { ApprovalQueue } from "./approval-queue.js";
import { SIGNAL_EXIT_CODES, type StopSignals, watchStopSignals } from "./stop-signals.js";
import { TerminalLines } from "./terminal-lines.js";

export interface LiveSessionOptions {
  plan: SessionPlan;
  io: CliIo;
  json: boolean;
  /** The session as a conversation (chat) rather than the event timeline (run, `chat --verbose`). */
  conversation?: boolean;
  /** Chat reads stdin whatever the policy; run only to ask. */
  readStdin: boolean;
  /** Lines typed while no question is open. */
  onLine?: (text: string) => void;
  /** Ctrl-C read as a key (`atPrompt`: it cancelled an open question); default: stop, as SIGINT does. */
  onInterrupt?: (atPrompt: boolean) => void;
  /** stdin ended. */
  onEnd?: () => void;
}

/**
 * Canonical events as JSONL, the timeline, or the conversation. On a terminal whose prompt is showing, the lines
 * go above the prompt, which is drawn again after them with what was typed: output never lands in the input line.
 */
class EventPrinter {
  readonly #renderer: TimelineRenderer | ConversationRenderer;

  constructor(
    readonly io: CliIo,
    readonly json: boolean,
    conversation: boolean,
    readonly terminal: () => TerminalLines | undefined,
  ) {
    const color = io.isTTY && !process.env.NO_COLOR;
    this.#renderer = conversation ? new ConversationRenderer({ color }) : new TimelineRenderer({ color });
  }

  print(event: RuntimeEvent): void {
    this.#write(this.json ? [JSON.stringify(event)] : this.#renderer.render(event));
  }

  flush(): void {
    if (!this.json) this.#write(this.#renderer.flush());
  }

  /** The parent's end where `/fork` hands the session over: in the conversation a line naming the fork. */
  handover(exited: RuntimeEvent, forkSessionId: string): void {
    if (!this.json && this.#renderer instanceof ConversationRenderer)
      this.#write(this.#renderer.forked(forkSessionId));
    else this.print(exited);
  }

  #write(lines: string[]): void {
    if (lines.length === 0) return;
    const text = lines.map((line) => `${line}\n`).join("");
    const terminal = this.terminal();
    if (terminal === undefined) this.io.stdout.write(text);
    else terminal.above(() => this.io.stdout.write(text));
  }
}

/**
 * One session with a live agent, the part `run` and `chat` share: the driver, its events printed and fed to the
 * one approval queue, the terminal, and SIGINT/SIGTERM — the session is stopped (pending requests cancelled,
 * `session.exited` written), everything it made is removed, and the command exits 130/143.
 */
export class LiveSession {
  readonly printer: EventPrinter;
  readonly queue: ApprovalQueue;
  readonly lines: TerminalLines | undefined;
  /** Settles when the event stream has ended (after `session.exited`). */
  readonly ended: Promise<void>;
  readonly #agent: AgentSession;
  readonly #signals: StopSignals;
  readonly #listeners: Array<(event: RuntimeEvent) => void> = [];

  private constructor(agent: AgentSession, options: LiveSessionOptions, signals: StopSignals) {
    const { io, plan } = options;
    this.#agent = agent;
    this.#signals = signals;
    this.printer = new EventPrinter(io, options.json, options.conversation === true, () => this.lines);
    const stdin = io.stdin as NodeJS.ReadableStream & { isTTY?: boolean };
    this.lines =
      options.readStdin || plan.policy === "ask"
        ? new TerminalLines({
            input: io.stdin,
            output: io.stderr,
            terminal: stdin.isTTY === true,
            onLine: options.onLine ?? (() => this.lines?.say("(no question is open: that line was dropped)")),
            onInterrupt: (atPrompt) => {
              if (options.onInterrupt !== undefined) options.onInterrupt(atPrompt);
              else if (!atPrompt) signals.trigger("SIGINT");
            },
            ...(options.onEnd === undefined ? {} : { onEnd: options.onEnd }),
          })
        : undefined;
    this.queue = new ApprovalQueue({
      policy: plan.policy,
      ...(this.lines === undefined ? {} : { lines: this.lines }),
      respond: (requestId, response) => this.driver.respond(requestId, response),
      warn: (text) => io.stderr.write(`provider-runtime: ${escapeControls(text)}\n`),
    });
    this.ended = this.#consume();
  }

  get driver(): RuntimeDriver {
    return this.#agent.driver;
  }

  /** The stop signal received (the session is being stopped), if any. */
  get stopSignal(): string | undefined {
    return this.#signals.received;
  }

  /** Every event, after it was printed and seen by the queue. */
  onEvent(listener: (event: RuntimeEvent) => void): void {
    this.#listeners.push(listener);
  }

  /** Chat's `/fork`: the session goes on on a fork of its conversation after that turn. */
  fork(afterTurnId: string | undefined): Promise<RuntimeDriver> {
    return this.#agent.fork(afterTurnId);
  }

  /** Each driver's events in turn: a fork takes over once the driver it was forked from has ended. */
  async #consume(): Promise<void> {
    for (;;) {
      const driver = this.driver;
      for await (const event of driver.events) {
        // the fork is the driver before its parent is stopped: the parent's exit is a hand-over, not the end
        if (event.type === "session.exited" && this.driver !== driver)
          this.printer.handover(event, this.driver.sessionId);
        else this.printer.print(event);
        this.queue.observe(event);
        for (const listener of this.#listeners) listener(event);
      }
      if (this.driver === driver) break;
    }
    this.printer.flush();
  }

  /**
   * Opens the session, runs `body` with it, and undoes everything on every way out. A stop signal stops the
   * driver (so `body` sees the stream end) and makes the exit code 128 + the signal; a second one leaves at once.
   */
  static async with(
    options: LiveSessionOptions,
    body: (live: LiveSession) => Promise<number>,
  ): Promise<number> {
    const { io } = options;
    let agent: AgentSession | undefined;
    const signals = watchStopSignals(
      (signal) => {
        io.stderr.write(`provider-runtime: ${signal}: stopping the session\n`);
        void agent?.driver.stop().catch(() => undefined);
      },
      (signal) => {
        io.stderr.write(`provider-runtime: ${signal} again: leaving without waiting for the agent\n`);
        agent?.removeScratchNow();
        process.exit(SIGNAL_EXIT_CODES[signal]);
      },
    );
    let live: LiveSession | undefined;
    // The last resort, should the process end some other way (an uncaught error): no scratch dir left behind.
    const onExit = () => agent?.removeScratchNow();
    process.once("exit", onExit);
    try {
      agent = await AgentSession.open(options.plan, io);
      live = new LiveSession(agent, options, signals);
      const code = signals.received === undefined ? await body(live) : 0;
      const signal = signals.received;
      return signal === undefined ? code : SIGNAL_EXIT_CODES[signal];
    } catch (error) {
      const signal = signals.received;
      if (signal === undefined) throw error;
      return SIGNAL_EXIT_CODES[signal];
    } finally {
      await agent?.close();
      await live?.ended.catch(() => undefined);
      live?.lines?.close();
      signals.dispose();
      process.off("exit", onExit);
    }
  }
}
