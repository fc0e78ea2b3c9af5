import type { CreateSessionBody } from "../api/schemas.js";
import type { ForkBody, SessionAdminPatch } from "../api/session-admin-schemas.js";
import {
  InvalidCommandError,
  type RequestResponse,
  type SessionSettings,
  type TurnInput,
  UnsupportedError,
} from "../contracts/driver.js";
import type { SessionRecord } from "../store/types.js";

/** Why a command was refused; the server answers each with its HTTP status. */
export type CommandErrorKind =
  | "invalid"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "unsupported"
  | "unavailable";

export const COMMAND_ERROR_STATUS = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unsupported: 422,
  unavailable: 503,
} as const satisfies Record<CommandErrorKind, number>;

/**
 * A refused command. Plain data (a kind and a sentence) so that a command that travelled to another node can be
 * refused there and rebuilt here.
 */
export class SessionCommandError extends Error {
  constructor(
    readonly kind: CommandErrorKind,
    message: string,
    /** For `invalid`: the body field at fault. */
    readonly field?: string,
  ) {
    super(message);
    this.name = "SessionCommandError";
  }
}

/**
 * Everything that changes a session. The server calls only this; `LocalSessions` runs the agents in this
 * process, a cluster implementation forwards a command to the node that runs the agent. Reads (the registry,
 * the events) go to the `SessionStore`, never through here.
 */
export interface SessionCommands {
  /** Starts an agent; resolves once its handshake is done (or failed: the stream then says why). */
  create(body: CreateSessionBody): Promise<SessionRecord>;
  /**
   * Starts a turn; resumes the agent natively first when the session has exited. While one runs: `reject`
   * (default) is a conflict, `queue` and `steer` go to the driver.
   */
  turn(sessionId: string, input: TurnInput): Promise<void>;
  /** Changes the model, mode or effort of the turns that follow; resolves with the updated record. */
  configure(sessionId: string, settings: SessionSettings): Promise<SessionRecord>;
  respond(sessionId: string, requestId: string, response: RequestResponse): Promise<void>;
  interrupt(sessionId: string): Promise<void>;
  /** Stops the agent (its log stays); resolves once `session.exited` is stored. */
  stop(sessionId: string): Promise<SessionRecord>;
  /**
   * A new session forked from this one after a turn (DESIGN.md §11), its agent started on a native fork of the
   * parent's thread; the parent is untouched.
   */
  fork?(sessionId: string, body: ForkBody): Promise<SessionRecord>;
  /** A title (also `thread.metadata.updated` in the stream) and the archived flag. */
  updateAdmin?(sessionId: string, patch: SessionAdminPatch): Promise<SessionRecord>;
  /** Stops the agent, then removes the session's events, native state and registry entry. */
  purge?(sessionId: string): Promise<void>;
  /** Stops every agent this process runs; resolves once each one's `session.exited` is stored. */
  close(): Promise<void>;
}

/** A driver's refusal as a command error: unsupported (422), a bad value (400), or `fallback`. */
export function commandErrorOf(error: unknown, fallback: (message: string) => SessionCommandError): Error {
  if (error instanceof SessionCommandError) return error;
  if (error instanceof UnsupportedError) return new SessionCommandError("unsupported", error.message);
  if (error instanceof InvalidCommandError)
    return new SessionCommandError("invalid", error.message, error.field);
  return fallback(error instanceof Error ? error.message : String(error));
}
