import type { RequestResponse } from "../../contracts/driver.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { askDecision, askQuestions, type PromptOutcome } from "./prompts.js";
import { questionsOf } from "./questions.js";
import type { TerminalLines } from "./terminal-lines.js";

export type ApprovalPolicy = "ask" | "accept" | "decline";

type Opened = Extract<RuntimeEvent, { type: "request.opened" }>;

/** Request types that put questions to the user: never answered without answers. */
const ASKS_THE_USER: ReadonlySet<string> = new Set(["tool_user_input", "mcp_elicitation"]);

interface Pending {
  opened: Opened;
  /** It asks the user something (by its type, or a `user-input.requested` came with it). */
  asks: boolean;
  /** The `user-input.requested` payload. */
  questions?: unknown;
  /** Seen with everything that came with it: it may be asked. */
  ready: boolean;
  withdraw: AbortController;
}

export interface ApprovalQueueOptions {
  policy: ApprovalPolicy;
  /** The terminal, for `ask`. */
  lines?: TerminalLines;
  respond(requestId: string, response: RequestResponse): Promise<void>;
  /** A notice for the user (an answer that could not be sent). */
  warn(text: string): void;
}

const NO_TERMINAL = "no terminal to put the agent's questions to";

/**
 * Every open request of a session, answered one at a time. With `ask`, each prompt names the request it answers,
 * questions are put one by one, and EOF or Ctrl-C at a prompt cancels that request and every request queued
 * behind it. Without a terminal a question is declined, never answered with made-up answers.
 */
export class ApprovalQueue {
  readonly #options: ApprovalQueueOptions;
  readonly #queue: Pending[] = [];
  #active: Pending | undefined;
  #pumping = false;

  constructor(options: ApprovalQueueOptions) {
    if (options.policy === "ask" && options.lines === undefined) throw new Error("ask needs a terminal");
    this.#options = options;
  }

  /** Feeds every event of the session, in order. Requests are answered in the order they were opened. */
  observe(event: RuntimeEvent): void {
    const requestId = event.requestId;
    if (requestId === undefined) return;
    if (event.type === "request.opened") {
      const pending: Pending = {
        opened: event,
        asks: ASKS_THE_USER.has(event.payload.requestType),
        ready: false,
        withdraw: new AbortController(),
      };
      this.#queue.push(pending);
      // A `user-input.requested` comes in the same batch of events: by the next macrotask it has been seen.
      setImmediate(() => this.#ready(pending));
    } else if (event.type === "user-input.requested") {
      const pending = this.#queue.find((p) => p.opened.requestId === requestId);
      if (pending === undefined || pending.ready) return;
      pending.asks = true;
      pending.questions = event.payload.questions;
      this.#ready(pending);
    } else if (event.type === "request.resolved") {
      this.#forget(requestId);
    }
  }

  #ready(pending: Pending): void {
    pending.ready = true;
    void this.#pump();
  }

  /** A request resolved without us (stopped session, withdrawn by the agent): no prompt for it any more. */
  #forget(requestId: string): void {
    const index = this.#queue.findIndex((p) => p.opened.requestId === requestId);
    if (index >= 0) this.#queue.splice(index, 1);
    if (this.#active?.opened.requestId === requestId) this.#active.withdraw.abort();
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#queue[0]?.ready) {
        const next = this.#queue.shift() as Pending;
        this.#active = next;
        const response = await this.#decide(next);
        this.#active = undefined;
        if (response === "cancel-rest") {
          const rest = this.#queue.splice(0);
          const also = rest.length > 0 ? ` and the ${rest.length} waiting behind it` : "";
          this.#options.lines?.say(`cancelled ${next.opened.requestId}${also}`);
          for (const pending of [next, ...rest]) await this.#send(pending, { decision: "cancel" });
        } else if (response !== undefined) await this.#send(next, response);
      }
    } finally {
      this.#pumping = false;
    }
  }

  async #send(pending: Pending, response: RequestResponse): Promise<void> {
    if (pending.withdraw.signal.aborted) return;
    const requestId = pending.opened.requestId as string;
    await this.#options.respond(requestId, response).catch((error: unknown) => {
      this.#options.warn(
        `could not answer ${requestId}: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }

  async #decide(pending: Pending): Promise<PromptOutcome> {
    const { policy, lines } = this.#options;
    const { asks } = pending;
    if (policy !== "ask" || lines === undefined) {
      if (asks) return { decision: "decline", message: NO_TERMINAL };
      return { decision: policy === "accept" ? "accept" : "decline" };
    }
    if (lines.ended) return "cancel-rest";
    lines.say(this.#heading(pending));
    const questions = asks ? questionsOf(pending.questions) : [];
    const { signal } = pending.withdraw;
    return questions.length > 0 ? askQuestions(lines, questions, signal) : askDecision(lines, asks, signal);
  }

  #heading(pending: Pending): string {
    const { opened } = pending;
    const behind = this.#queue.length;
    const waiting = behind > 0 ? ` (${behind} more waiting)` : "";
    const what = [opened.payload.requestType, opened.payload.detail].filter(Boolean).join(" · ");
    return `\n── request ${opened.requestId}${waiting}\n   ${what}`;
  }
}
