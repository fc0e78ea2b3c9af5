import { errorBodyOf } from "./bodies.js";
import { RemoteApiError, RemoteProtocolError } from "./errors.js";

/** The `fetch` the client calls: the platform's by default (browser, Node ≥ 18), or the host's own. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface TransportOptions {
  /** The server's origin, e.g. `http://127.0.0.1:4317` (a trailing slash is fine). */
  baseUrl: string;
  /** The bearer token (`serve --token`, `PROVIDER_RUNTIME_TOKEN` or `DATA/token`). */
  token: string;
  fetch?: FetchLike;
}

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** A parser of a response's JSON: returns the typed value, or undefined when the JSON is not of that shape. */
export type BodyParser<T> = (json: unknown) => T | undefined;

/** HTTP for the client: the URL, the token, JSON in and out, and error statuses turned into typed errors. */
export class ApiTransport {
  readonly baseUrl: string;
  readonly #token: string;
  readonly #fetch: FetchLike;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#token = options.token;
    // A browser's fetch must be called on the global object, never as a method of ours.
    this.#fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  }

  /** One JSON call; resolves with the parsed body of a status in `ok`, rejects with a RemoteApiError otherwise. */
  async call<T>(
    method: HttpMethod,
    path: string,
    ok: readonly number[],
    parse: BodyParser<T>,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<T> {
    const route = `${method} ${path}`;
    const headers: Record<string, string> = { ...this.#auth(), accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await this.#fetch(this.url(path), {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal === undefined ? {} : { signal }),
    });
    const text = await response.text();
    if (!ok.includes(response.status)) throw apiError(route, response.status, text);
    const json = parseJson(text);
    const value = json === NOT_JSON ? undefined : parse(json);
    if (value === undefined)
      throw new RemoteProtocolError(route, "the response is not the documented JSON", text);
    return value;
  }

  /** Opens an SSE response; rejects with a RemoteApiError for an error status (its body read and released). */
  async stream(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    const response = await this.#fetch(this.url(path), {
      method: "GET",
      headers: { ...this.#auth(), accept: "text/event-stream", ...headers },
      signal,
    });
    if (response.status !== 200 || response.body === null)
      throw apiError(`GET ${path}`, response.status, await response.text().catch(() => ""));
    return response;
  }

  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  #auth(): Record<string, string> {
    return { authorization: `Bearer ${this.#token}` };
  }
}

const NOT_JSON = Symbol("not JSON");

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/** The server's `{error, field}` body, or the status text and the body's start when it sent something else. */
export function apiError(route: string, status: number, text: string): RemoteApiError {
  const json = parseJson(text);
  const body = errorBodyOf(json);
  if (body !== undefined) return new RemoteApiError(route, status, body.error, body.field);
  const preview = text.trim().slice(0, 200);
  return new RemoteApiError(route, status, preview.length > 0 ? preview : "no message");
}
