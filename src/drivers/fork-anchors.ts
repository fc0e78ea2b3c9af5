import type { DriverProvider } from "../contracts/driver.js";
import type { RuntimeEvent } from "../contracts/events.js";
import { BoundedMap } from "../kit/bounded-map.js";
import { acpForkAnchor } from "../providers/acp/fork-anchor.js";
import { claudeForkAnchor } from "../providers/claude/fork-anchor.js";
import { codexForkAnchor } from "../providers/codex/fork-anchor.js";

/** The native mark an event gives its turn for a fork, if it gives one; the turn's last mark wins. */
export type ForkAnchorOf = (event: RuntimeEvent) => string | undefined;

/** The providers that fork natively, each with how a turn's native mark is read off its events. */
const ANCHORS: Partial<Record<DriverProvider, ForkAnchorOf>> = {
  codex: codexForkAnchor,
  claude: claudeForkAnchor,
  acp: acpForkAnchor,
  cursor: acpForkAnchor,
};

export function forkAnchorOf(provider: string): ForkAnchorOf | undefined {
  return ANCHORS[provider as DriverProvider];
}

/** Why a provider's driver cannot fork (its `fork()` rejects with this reason). */
export const FORK_UNSUPPORTED = {
  "codex-sdk":
    "@openai/codex-sdk only starts and resumes threads through codex exec; `codex exec fork` copies a whole " +
    "thread and cannot stop at a turn — use provider codex (app-server thread/fork)",
} as const;

export function forkUnsupportedReason(provider: string): string {
  if (provider === "codex-sdk") return FORK_UNSUPPORTED["codex-sdk"];
  return `${provider} sessions cannot be forked`;
}

/**
 * Providers whose native fork copies the whole conversation (ACP's `session/fork` has no fork point): a fork can
 * end only with the session's last turn.
 */
export function forksWholeConversation(provider: string): boolean {
  return provider === "acp" || provider === "cursor";
}

/** Why a fork of a whole-conversation provider cannot end with `turnId`, a completed turn that is not the last. */
export function earlierTurnUnsupported(turnId: string, latestTurnId: string | undefined): string {
  return (
    `ACP's session/fork copies the whole conversation and has no fork point: a fork can end only with the ` +
    `session's last turn (${latestTurnId ?? "none"}), not with the earlier turn ${turnId}`
  );
}

/**
 * The native mark of each completed turn of a stream, read as its events pass: a mark counts once its turn has
 * completed (a turn still running cannot be forked at). Bounded: the newest 10,000 turns.
 */
export class TurnAnchors {
  readonly #open = new Map<string, string>();
  readonly #completed = new BoundedMap<string, string>(10_000);
  #last: string | undefined;
  #latest: string | undefined;

  constructor(readonly anchorOf: ForkAnchorOf) {}

  observe(event: RuntimeEvent): void {
    const turnId = event.turnId;
    if (turnId === undefined) return;
    this.#latest = turnId;
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

  /** The last turn seen at all, completed or still running. */
  get latestTurnId(): string | undefined {
    return this.#latest;
  }
}
