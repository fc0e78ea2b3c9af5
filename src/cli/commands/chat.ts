import { DRIVER_PROVIDERS } from "../../drivers/index.js";
import { parseCommandArgs } from "../args.js";
import { planSession, SESSION_FLAGS, SESSION_HELP } from "../session/agent-session.js";
import { attachment, configure, type PathAttachment, turnInput } from "../session/chat-commands.js";
import { LiveSession } from "../session/live-session.js";
import { SIGNAL_EXIT_CODES } from "../session/stop-signals.js";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "../usage.js";

const HELP = `Usage: provider-runtime chat --provider ${DRIVER_PROVIDERS.join("|")} [options]

An interactive multi-turn session on a terminal: type a prompt, read the conversation, answer requests as they come
(one at a time).
  --verbose              every event as a timeline line (protocol events included), not the conversation
  /model NAME, /mode NAME  change the agent's model or mode (where the agent can)
  /attach PATH           send a file (an image or another file) with the next prompt (where the agent takes it)
  /interrupt             stop the running turn
  /quit                  end the session (exit 0); Ctrl-D at the prompt too
  Ctrl-C                 interrupts a running turn; twice in a row quits (exit 130)
${SESSION_HELP}`;

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
  /** Ctrl-Cs in a row, with no line typed in between. */
  #ctrlC = 0;
  #quitting = false;
  /** Files for the next turn (`/attach`). */
  #attachments: PathAttachment[] = [];
  #finish: (code: number) => void = () => {};
  readonly #done = new Promise<number>((resolve) => {
    this.#finish = resolve;
  });

  constructor(live: LiveSession) {
    this.#live = live;
    live.onEvent((event) => {
      if (event.type !== "turn.completed") return;
      this.#running = false;
      live.printer.flush();
      this.#prompt();
    });
    void live.ended.then(() => {
      if (this.#quitting) return;
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
    this.#say("type a prompt; /interrupt stops a turn, /quit ends the session");
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
    } else if (/^\/(model|mode)(\s|$)/.test(input)) {
      const [command, ...rest] = input.split(/\s+/);
      const key = command === "/model" ? "model" : "mode";
      void configure(this.#live.driver, key, rest.join(" ")).then((said) => {
        this.#say(said);
        this.#prompt();
      });
    } else if (/^\/attach(\s|$)/.test(input)) {
      const added = attachment(this.#live.driver, input.slice("/attach".length).trim(), process.cwd());
      if (typeof added === "string") this.#say(added);
      else {
        this.#attachments.push(added);
        this.#say(`attached ${added.path} (${added.type}) to the next prompt`);
      }
      this.#prompt();
    } else if (input.startsWith("/")) {
      this.#say(`unknown command ${input}: /model, /mode, /attach, /interrupt or /quit`);
      this.#prompt();
    } else if (this.#running) {
      this.#say("a turn is running: wait for it, or /interrupt");
    } else if (input.length === 0) {
      this.#prompt();
    } else {
      this.#send(input);
    }
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
    const attachments = this.#attachments;
    this.#attachments = [];
    this.#live.driver.sendTurn(turnInput(text, attachments)).catch((error: unknown) => {
      this.#say(`could not start the turn: ${messageOf(error)}`);
      this.#running = false;
      this.#prompt();
    });
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
