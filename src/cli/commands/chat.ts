import type { TurnAttachment, TurnInput } from "../../contracts/driver.js";
import { DRIVER_PROVIDERS } from "../../drivers/index.js";
import { parseCommandArgs } from "../args.js";
import { planSession, SESSION_FLAGS, SESSION_HELP } from "../session/agent-session.js";
import { attachmentFor, CHAT_COMMANDS_HELP, offered, parseChatLine } from "../session/chat-commands.js";
import { LiveSession } from "../session/live-session.js";
import { SIGNAL_EXIT_CODES } from "../session/stop-signals.js";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "../usage.js";

const HELP = `Usage: provider-runtime chat --provider ${DRIVER_PROVIDERS.join("|")} [options]

An interactive multi-turn session on a terminal: type a prompt, read the conversation, answer requests as they come
(one at a time).
  --verbose              every event as a timeline line (protocol events included), not the conversation
  /interrupt             stop the running turn
  /fork                  go on on a fork of the conversation after the last completed turn (the agent's own
                         copy; the session before it is stopped, untouched)
  /quit                  end the session (exit 0); Ctrl-D at the prompt too
  Ctrl-C                 interrupts a running turn; twice in a row quits (exit 130)
${CHAT_COMMANDS_HELP}${SESSION_HELP}`;

const PROMPT = "you> ";
const CHAT_FLAGS = { ...SESSION_FLAGS, verbose: { type: "boolean" } } as const;

export async function chatCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, CHAT_FLAGS);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError("chat takes no PROMPT: type it at the prompt");
  if (io.stdinIsTTY !== true) {
    throw new UsageError("chat needs a terminal on stdin; use run for a single scripted turn");
  }
  const plan = planSession(values, io, "chat");
  let chat: Chat | undefined;
  return LiveSession.with(
    {
      plan,
      io,
      json: values.json === true,
      conversation: values.verbose !== true,
      readStdin: true,
      onLine: (text) => chat?.line(text),
      onInterrupt: (atPrompt) => chat?.ctrlC(atPrompt),
      onEnd: () => chat?.quit(EXIT_OK),
    },
    (live) => {
      chat = new Chat(live);
      return chat.run();
    },
  );
}

/** The conversation: a prompt when no turn runs, commands while one does, Ctrl-C counted. */
class Chat {
  readonly #live: LiveSession;
  #running = false;
  /** Turns queued behind the running one (`>> TEXT`): the session stays busy through them. */
  #queued = 0;
  /** Attachments for the next prompt (`/attach PATH`). */
  #attachments: TurnAttachment[] = [];
  /** Ctrl-Cs in a row, with no line typed in between. */
  #ctrlC = 0;
  #quitting = false;
  /** The last turn that completed: where `/fork` forks. */
  #lastTurn: string | undefined;
  #forking = false;
  #finish: (code: number) => void = () => {};
  readonly #done = new Promise<number>((resolve) => {
    this.#finish = resolve;
  });

  constructor(live: LiveSession) {
    this.#live = live;
    live.onEvent((event) => {
      if (event.type === "turn.started") this.#running = true;
      if (event.type === "turn.completed") this.#lastTurn = event.turnId;
      if (event.type !== "turn.completed" && event.type !== "turn.aborted") return;
      live.printer.flush();
      if (this.#queued > 0) {
        this.#queued -= 1;
        return;
      }
      this.#running = false;
      this.#prompt();
    });
    void live.ended.then(() => {
      if (this.#quitting || this.#forking) return;
      if (live.stopSignal === undefined) this.#say("the session has ended");
      this.#finish(EXIT_FAILURE);
    });
  }

  async run(): Promise<number> {
    try {
      await this.#live.driver.start();
    } catch (error) {
      if (this.#live.stopSignal === undefined) this.#say(`could not start the session: ${messageOf(error)}`);
      return EXIT_FAILURE;
    }
    this.#say(
      "type a prompt; /model, /mode, /attach PATH; while a turn runs, typing steers it and >> TEXT queues; " +
        "/interrupt stops a turn, /quit ends the session",
    );
    this.#prompt();
    return this.#done;
  }

  line(text: string): void {
    this.#ctrlC = 0;
    const input = text.trim();
    if (input === "/quit") {
      void this.quit(EXIT_OK);
    } else if (input === "/interrupt") {
      if (this.#running) this.#interrupt();
      else this.#say("no turn is running");
      this.#prompt();
    } else {
      this.#command(input);
    }
  }

  /** The command surface's lines: settings, attachments, and steering or queueing while a turn runs. */
  #command(input: string): void {
    const parsed = parseChatLine(input);
    const driver = this.#live.driver;
    if (parsed.kind === "model" || parsed.kind === "mode") {
      const what = parsed.kind;
      if (parsed.name === undefined) {
        this.#say(offered(driver, what));
        this.#prompt();
        return;
      }
      const name = parsed.name;
      driver
        .configure(what === "model" ? { model: name } : { mode: name })
        .then(
          () => this.#say(`${what}: ${name} (from the next turn on)`),
          (error: unknown) => this.#say(`could not change the ${what}: ${messageOf(error)}`),
        )
        .finally(() => this.#prompt());
    } else if (parsed.kind === "attach") {
      if (parsed.path === undefined) this.#say("usage: /attach PATH");
      else {
        const attachment = attachmentFor(parsed.path, process.cwd());
        if (typeof attachment === "string") this.#say(attachment);
        else {
          this.#attachments.push(attachment);
          this.#say(
            `attached ${"path" in attachment ? attachment.path : "data"} (${attachment.type}) to the next prompt`,
          );
        }
      }
      this.#prompt();
    } else if (parsed.kind === "queue" && this.#running) {
      if (parsed.text.length === 0) {
        this.#say("usage: >> TEXT");
        return;
      }
      this.#queued += 1;
      driver.sendTurn(this.#input(parsed.text, "queue")).then(
        () => this.#say("queued: it starts when this turn ends"),
        (error: unknown) => {
          this.#queued -= 1;
          this.#say(`could not queue the turn: ${messageOf(error)}`);
        },
      );
    } else if (input === "/fork") {
      if (this.#running) this.#say("a turn is running: wait for it, or /interrupt, then /fork");
      else void this.#fork();
    } else if (input.startsWith("/")) {
      this.#say(`unknown command ${input}: /model, /mode, /attach, /fork, /interrupt or /quit`);
      this.#prompt();
    } else if (this.#running) {
      driver.sendTurn(this.#input(input, "steer")).then(
        () => this.#say("steered: the running turn takes it"),
        (error: unknown) =>
          this.#say(`could not steer the turn: ${messageOf(error)} (>> TEXT queues it instead)`),
      );
    } else if (input.length === 0) {
      this.#prompt();
    } else {
      this.#send(parsed.kind === "queue" ? parsed.text : input);
    }
  }

  /** The turn input of a line, with the attachments given so far (they go with it, once). */
  #input(text: string, delivery?: TurnInput["delivery"]): TurnInput {
    const attachments = this.#attachments;
    this.#attachments = [];
    return {
      text,
      ...(attachments.length === 0 ? {} : { attachments }),
      ...(delivery === undefined ? {} : { delivery }),
    };
  }

  ctrlC(atPrompt: boolean): void {
    this.#ctrlC += 1;
    if (this.#ctrlC >= 2) {
      void this.quit(SIGNAL_EXIT_CODES.SIGINT);
    } else if (atPrompt) {
      this.#say("request cancelled (Ctrl-C again to quit)");
    } else if (this.#running) {
      this.#say("interrupting the turn (Ctrl-C again to quit)");
      this.#interrupt();
    } else {
      this.#say("(Ctrl-C again to quit, or /quit)");
      this.#prompt();
    }
  }

  #send(text: string): void {
    this.#running = true;
    this.#live.driver.sendTurn(this.#input(text)).catch((error: unknown) => {
      this.#say(`could not start the turn: ${messageOf(error)}`);
      this.#running = false;
      this.#prompt();
    });
  }

  async #fork(): Promise<void> {
    this.#forking = true;
    try {
      const fork = await this.#live.fork(this.#lastTurn);
      this.#say(`forked: now on session ${fork.sessionId}`);
    } catch (error) {
      this.#say(`could not fork: ${messageOf(error)}`);
    } finally {
      this.#forking = false;
      this.#prompt();
    }
  }

  async quit(code: number): Promise<void> {
    if (this.#quitting) return;
    this.#quitting = true;
    await this.#live.driver.stop().catch(() => undefined);
    await this.#live.ended.catch(() => undefined);
    this.#finish(code);
  }

  #interrupt(): void {
    this.#live.driver
      .interrupt()
      .catch((error: unknown) => this.#say(`could not interrupt: ${messageOf(error)}`));
  }

  #prompt(): void {
    if (!this.#running && !this.#quitting) this.#live.lines?.prompt(PROMPT);
  }

  #say(text: string): void {
    this.#live.lines?.say(text);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
