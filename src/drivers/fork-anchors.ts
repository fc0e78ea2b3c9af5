import type { DriverProvider } from "../contracts/driver.js";
import type { RuntimeEvent } from "../contracts/events.js";
import { BoundedMap } from "../kit/bounded-map.js";
import { claudeForkAnchor } from "../providers/claude/fork-anchor.js";
import { codexForkAnchor } from "../providers/codex/fork-anchor.js";

/** The native mark an event gives its turn for a fork, if it gives one; the turn's last mark wins. */
export type ForkAnchorOf = (event: RuntimeEvent) => string | undefined;

/** The providers that fork natively, each with how a turn's native mark is read off its events. */
const ANCHORS: Partial<Record<DriverProvider, ForkAnchorOf>> = {
  codex: codexForkAnchor,
  claude: claudeForkAnchor,
};

export function forkAnchorOf(provider: string): ForkAnchorOf | undefined {
  return ANCHORS[provider as DriverProvider];
}

/** Why a provider's driver cannot fork (its `fork()` rejects with this reason). */
export const FORK_UNSUPPORTED = {
  "codex-sdk":
    "@openai/codex-sdk only starts and resumes threads through codex exec; `codex exec fork` copies a whole " +
    "thread and cannot stop at a turn — use provider codex (app-server thread/fork)",
  acp: "this driver does not speak ACP's unstable session/fork yet (only some agents advertise it)",
} as const;

export function forkUnsupportedReason(provider: string): string {
  if (provider === "codex-sdk") return FORK_UNSUPPORTED["codex-sdk"];
  if (provider === "acp" || provider === "cursor") return FORK_UNSUPPORTED.acp;
  return `${provider} sessions cannot be forked`;
}

/**
 * The native mark of each completed turn of a stream, read as its events pass: a mark counts once its turn has
 * completed (a turn still running cannot be forked at). Bounded: the newest 10,000 turns.
 */
export class TurnAnchors {
  readonly #open = new Map<string, string>();
  readonly #completed = new BoundedMap<string, string>(10_000);
  #last: string | undefined;

  constructor(readonly anchorOf: ForkAnchorOf) {}

  observe(event: RuntimeEvent): void {
    const turnId = event.turnId;
    if (turnId === undefined) return;
    const anchor = this.anchorOf(event);
    if (anchor !== undefined) this.#open.set(turnId, anchor);
    if (event.type !== "turn.completed" && event.type !== "turn.aborted") return;
    const mark = this.#open.get(turnId);
    this.#open.delete(turnId);
    if (mark === undefined) return;
    this.#completed.set(turnId, mark);
    this.#last = turnId;
  }

  /** The native mark of a completed turn; undefined for a turn not seen or not ended. */
  get(turnId: string): string | undefined {
    return this.#completed.get(turnId);
  }

  /** The last completed turn's id. */
  get lastTurnId(): string | undefined {
    return this.#last;
  }
}
