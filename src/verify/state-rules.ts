import type { RuntimeEvent } from "../contracts/events.js";
import { BoundedMap } from "../kit/bounded-map.js";
import type { ViolationRule } from "./violations.js";

type Flag = (rule: ViolationRule, message: string) => void;

const ENDED_SESSION = new Set(["stopped", "error"]);
const ENDED_THREAD = new Set(["idle", "archived", "closed", "error"]);

/**
 * The state semantics of DESIGN.md §2, checked per session: the session is `waiting` exactly while a request is
 * open, and returns to `ready` (or ends) after its last open turn ends, before the next turn, request or exit;
 * a thread returns to `idle` after its last turn ends.
 */
export class StateRules {
  readonly #openTurns: BoundedMap<string, string>;
  readonly #threadTurns: BoundedMap<string, number>;
  readonly #openRequests: BoundedMap<string, true>;
  /** Threads whose last turn ended and that have not been reported idle yet, with that turn's id. */
  readonly #owedIdle: BoundedMap<string, string>;
  #state: string | undefined;
  /** The turn after whose end the session has not been reported ready yet. */
  #owedReady: string | undefined;

  constructor(memory: number) {
    this.#openTurns = new BoundedMap(memory);
    this.#threadTurns = new BoundedMap(memory);
    this.#openRequests = new BoundedMap(memory);
    this.#owedIdle = new BoundedMap(memory);
  }

  check(event: RuntimeEvent, flag: Flag): void {
    switch (event.type) {
      case "turn.started": {
        this.#checkOwed(flag, "before the next turn");
        const thread = event.threadId ?? "";
        this.#openTurns.set(event.turnId, thread);
        this.#threadTurns.set(thread, (this.#threadTurns.get(thread) ?? 0) + 1);
        this.#owedIdle.release(thread);
        break;
      }
      case "turn.completed":
      case "turn.aborted": {
        const thread = this.#openTurns.get(event.turnId);
        if (thread === undefined) break;
        this.#openTurns.release(event.turnId);
        const left = (this.#threadTurns.get(thread) ?? 1) - 1;
        if (left > 0) this.#threadTurns.set(thread, left);
        else {
          this.#threadTurns.release(thread);
          if (thread !== "") this.#owedIdle.set(thread, event.turnId);
        }
        if (this.#openTurns.size === 0 && !ENDED_SESSION.has(this.#state ?? ""))
          this.#owedReady = event.turnId;
        break;
      }
      case "request.opened":
        this.#checkOwed(flag, "before the next request");
        this.#openRequests.set(event.requestId, true);
        break;
      case "request.resolved":
        if (!this.#openRequests.has(event.requestId)) break;
        if (this.#state !== "waiting" && !ENDED_SESSION.has(this.#state ?? ""))
          flag("session-state", `request ${event.requestId} was open but the session was never waiting`);
        this.#openRequests.release(event.requestId);
        break;
      case "session.state.changed":
        this.#sessionState(event.payload.state, flag);
        break;
      case "thread.state.changed":
        if (event.threadId !== undefined && ENDED_THREAD.has(event.payload.state))
          this.#owedIdle.release(event.threadId);
        break;
      case "session.exited":
        this.#checkOwed(flag, "before the session exited");
        break;
      default:
        break;
    }
  }

  /** End of the stream: what is still owed. */
  finish(flag: Flag): void {
    this.#checkOwed(flag, "by the end of the stream");
  }

  #sessionState(state: string, flag: Flag): void {
    this.#state = state;
    if (state === "ready" || ENDED_SESSION.has(state)) this.#owedReady = undefined;
    if (state === "waiting" && this.#openRequests.size === 0)
      flag("session-state", "waiting without an open request");
    if (state !== "waiting" && !ENDED_SESSION.has(state) && this.#openRequests.size > 0)
      flag("session-state", `${state} while ${this.#openRequests.size} request(s) are open`);
  }

  #checkOwed(flag: Flag, when: string): void {
    if (this.#owedReady !== undefined) {
      flag("session-state", `turn ${this.#owedReady} ended but the session did not return to ready ${when}`);
      this.#owedReady = undefined;
    }
    for (const [thread, turnId] of this.#owedIdle.entries()) {
      if (this.#threadTurns.has(thread)) continue;
      flag("thread-state", `turn ${turnId} ended but thread ${thread} did not return to idle ${when}`);
    }
    this.#owedIdle.clear();
  }
}
