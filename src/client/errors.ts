/**
 * What a remote call can fail with. Every error names the route it came from, so a host's log says which call
 * failed without a stack trace.
 */

/** The server answered with an error status: `status` and the server's `{error, field}` message. */
export class RemoteApiError extends Error {
  readonly status: number;
  /** For a 400: the path of the first bad field, as the server named it. */
  readonly field: string | undefined;
  /** `METHOD /path` of the call. */
  readonly route: string;

  constructor(route: string, status: number, message: string, field?: string) {
    super(`${route}: ${status} ${message}${field === undefined ? "" : ` (field ${field})`}`);
    this.name = "RemoteApiError";
    this.route = route;
    this.status = status;
    this.field = field;
  }
}

/**
 * The server could not be reached (refused, reset, gone mid-stream) after every retry the policy allows; a plain
 * call is not retried. `url` is the address that failed; `cause` the platform's own error.
 */
export class RemoteConnectionError extends Error {
  readonly route: string;
  readonly attempts: number;
  readonly url: string | undefined;

  constructor(route: string, attempts: number, cause: unknown, url?: string) {
    const where = url === undefined ? "" : ` (${url})`;
    super(`${route}${where}: no connection after ${attempts} attempt(s): ${describe(cause)}`, { cause });
    this.name = "RemoteConnectionError";
    this.route = route;
    this.attempts = attempts;
    this.url = url;
  }
}

/**
 * The server sent something that is not what the API promises (a body that is not the documented JSON, an SSE
 * message that is not an event of the session, a message past the size limit). `text` holds its start.
 */
export class RemoteProtocolError extends Error {
  readonly route: string;
  readonly text: string;

  constructor(route: string, reason: string, text = "") {
    super(`${route}: ${reason}`);
    this.name = "RemoteProtocolError";
    this.route = route;
    this.text = text.slice(0, PREVIEW_CHARS);
  }
}

/** How much of an offending body an error keeps. */
export const PREVIEW_CHARS = 4096;

export function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}
