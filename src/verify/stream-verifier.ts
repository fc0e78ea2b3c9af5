import type { RuntimeEvent } from "../contracts/events.js";
import { RuntimeEventSchema } from "../contracts/events.js";
import { BoundedMap } from "../kit/bounded-map.js";
import { StateRules } from "./state-rules.js";
import type { Violation, ViolationRule } from "./violations.js";

type Phase = "open" | "closed";

interface SessionState {
  lastSequence: number;
  turns: BoundedMap<string, Phase>;
  items: BoundedMap<string, Phase>;
  requests: BoundedMap<string, Phase>;
  threads: BoundedMap<string, true>;
  states: StateRules;
}

export interface StreamVerifierOptions {
  /** How many turn/item/request ids per session are remembered (memory stays bounded on huge streams). */
  memory?: number;
}

/**
 * Checks a canonical stream one event at a time (constant memory per open entity): schema validity and the
 * lifecycle rules of DESIGN.md §2.
 */
export class StreamVerifier {
  readonly #sessions = new BoundedMap<string, SessionState>(1_000);
  readonly #memory: number;
  #index = 0;
  #count = 0;

  constructor(options: StreamVerifierOptions = {}) {
    this.#memory = options.memory ?? 200_000;
  }

  get eventCount(): number {
    return this.#count;
  }

  check(value: unknown): Violation[] {
    this.#index++;
    const parsed = RuntimeEventSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue?.path.join(".") ?? "";
      const sequence = sequenceOf(value);
      return [
        this.#violation(
          "invalid-event",
          sequence,
          `${typeLabel(value)} ${path ? `${path}: ` : ""}${issue?.message ?? "invalid"}`,
        ),
      ];
    }
    this.#count++;
    return this.#checkLifecycle(parsed.data);
  }

  /** End of the stream: what each session still owes (a state change after its last turn). */
  finish(): Violation[] {
    const out: Violation[] = [];
    for (const [sessionId, session] of this.#sessions.entries()) {
      session.states.finish((rule, message) =>
        out.push(this.#violation(rule, session.lastSequence, `session ${sessionId}: ${message}`)),
      );
    }
    return out;
  }

  /** A line that is not JSON at all. */
  unparsable(reason: string): Violation {
    this.#index++;
    return this.#violation("invalid-event", undefined, `not JSON: ${reason}`);
  }

  #checkLifecycle(event: RuntimeEvent): Violation[] {
    const out: Violation[] = [];
    const session = this.#session(event.sessionId);
    const seq = event.sequence;
    const flag = (rule: ViolationRule, message: string) =>
      out.push(this.#violation(rule, seq, `${event.type}: ${message}`));

    if (seq !== session.lastSequence + 1) {
      flag("sequence-gap", `expected sequence ${session.lastSequence + 1}, got ${seq}`);
    }
    session.lastSequence = seq;

    switch (event.type) {
      case "thread.started":
        if (event.threadId) session.threads.set(event.threadId, true);
        break;
      case "turn.started":
        if (event.threadId && !session.threads.has(event.threadId))
          flag("referenced-before-opened", `turn in thread ${event.threadId} before thread.started`);
        if (event.turnId) {
          if (session.turns.get(event.turnId) === "open")
            flag("turn-completed-twice", `turn ${event.turnId} started twice`);
          session.turns.set(event.turnId, "open");
        }
        break;
      case "turn.completed":
      case "turn.aborted":
        if (event.turnId) {
          const phase = session.turns.get(event.turnId);
          if (phase === undefined)
            flag("referenced-before-opened", `turn ${event.turnId} ended but never started`);
          if (phase === "closed") flag("turn-completed-twice", `turn ${event.turnId} ended twice`);
          session.turns.set(event.turnId, "closed");
        }
        break;
      case "item.started":
        if (event.itemId) {
          if (session.items.get(event.itemId) === "closed")
            flag("delta-after-completion", `item ${event.itemId} restarted after completion`);
          session.items.set(event.itemId, "open");
        }
        break;
      case "item.updated":
      case "content.delta":
        if (event.itemId) {
          const phase = session.items.get(event.itemId);
          if (phase === undefined)
            flag("referenced-before-opened", `item ${event.itemId} used before item.started`);
          if (phase === "closed")
            flag("delta-after-completion", `item ${event.itemId} changed after item.completed`);
        }
        break;
      case "item.completed":
        if (event.itemId) {
          const phase = session.items.get(event.itemId);
          if (phase === undefined)
            flag("referenced-before-opened", `item ${event.itemId} completed but never started`);
          if (phase === "closed") flag("delta-after-completion", `item ${event.itemId} completed twice`);
          session.items.set(event.itemId, "closed");
        }
        break;
      case "request.opened":
        if (event.requestId) session.requests.set(event.requestId, "open");
        break;
      case "request.resolved":
        if (event.requestId) {
          const phase = session.requests.get(event.requestId);
          if (phase === undefined)
            flag("referenced-before-opened", `request ${event.requestId} resolved but never opened`);
          if (phase === "closed") flag("request-resolved-twice", `request ${event.requestId} resolved twice`);
          session.requests.set(event.requestId, "closed");
        }
        break;
      case "session.exited":
        for (const [turnId, phase] of session.turns.entries()) {
          if (phase === "open") flag("turn-open-at-exit", `turn ${turnId} still open at session exit`);
        }
        break;
      default:
        break;
    }
    session.states.check(event, flag);
    return out;
  }

  #session(sessionId: string): SessionState {
    let session = this.#sessions.get(sessionId);
    if (session === undefined) {
      session = {
        lastSequence: 0,
        turns: new BoundedMap(this.#memory),
        items: new BoundedMap(this.#memory),
        requests: new BoundedMap(this.#memory),
        threads: new BoundedMap(this.#memory),
        states: new StateRules(this.#memory),
      };
      this.#sessions.set(sessionId, session);
    }
    return session;
  }

  #violation(rule: ViolationRule, sequence: number | undefined, message: string): Violation {
    return { rule, sequence, index: this.#index, message };
  }
}

function sequenceOf(value: unknown): number | undefined {
  const sequence = (value as { sequence?: unknown } | null)?.sequence;
  return typeof sequence === "number" ? sequence : undefined;
}

function typeLabel(value: unknown): string {
  const type = (value as { type?: unknown } | null)?.type;
  return typeof type === "string" ? type : "event";
}
