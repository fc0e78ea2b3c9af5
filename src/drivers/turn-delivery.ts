import { type TurnInput, UnsupportedError } from "../contracts/driver.js";
import type { DriverSession } from "./driver-session.js";

/** How a driver starts a turn, and steers a running one where its agent can. */
export interface TurnStarter {
  provider: string;
  start(input: TurnInput): Promise<void>;
  /** Adds the input to the running turn; absent where the agent cannot be steered. */
  steer?: ((input: TurnInput) => Promise<void>) | undefined;
  /** Why the agent cannot be steered (for the `UnsupportedError`). */
  steerUnsupported?: string | undefined;
}

/**
 * `sendTurn`'s delivery, the same for every driver (DESIGN.md §11): a queued turn waits for the running one to end
 * and then starts, in the order sent; a steered one goes into the running turn through the agent's own call. With
 * no turn running, either starts a turn. Without a delivery the driver sends at once, as it always did.
 */
export class TurnDelivery {
  readonly #queued: TurnInput[] = [];
  #draining = false;

  constructor(
    readonly session: DriverSession,
    readonly starter: TurnStarter,
  ) {}

  /** Turns waiting for the running one to end. */
  get queued(): number {
    return this.#queued.length;
  }

  async send(input: TurnInput): Promise<void> {
    const running = this.session.turnRunning || this.#queued.length > 0;
    if (input.delivery === "steer" && running && this.session.turnRunning) {
      const steer = this.starter.steer;
      if (steer === undefined)
        throw new UnsupportedError(
          this.starter.provider,
          "steer a running turn",
          this.starter.steerUnsupported ?? "the agent has no way to add input to a running turn",
        );
      return steer(input);
    }
    if (input.delivery === "reject" && running)
      throw new Error(`${this.starter.provider}: a turn is already running (delivery reject)`);
    if (input.delivery === "queue" && running) {
      this.#queued.push(input);
      this.#drainLater();
      return;
    }
    return this.#start(input);
  }

  async #start(input: TurnInput): Promise<void> {
    this.session.turnRequested();
    try {
      await this.starter.start(input);
    } catch (error) {
      this.session.turnRequested(false);
      throw error;
    }
  }

  /** Starts the queued turns one after another, each once the turn before it has ended. */
  #drainLater(): void {
    if (this.#draining) return;
    this.#draining = true;
    const next = () => {
      if (this.session.ended) {
        this.#queued.length = 0;
        this.#draining = false;
        return;
      }
      const input = this.#queued.shift();
      if (input === undefined) {
        this.#draining = false;
        return;
      }
      this.#start(input).then(
        () => this.session.onTurnEnd(() => queueMicrotask(next)),
        (error: unknown) => {
          this.session.warn(
            `a queued turn could not start: ${error instanceof Error ? error.message : error}`,
            {
              reason: "queued-turn-failed",
            },
          );
          queueMicrotask(next);
        },
      );
    };
    this.session.onTurnEnd(() => queueMicrotask(next));
  }
}
