import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readMessagesRequest } from "./anthropic-request.js";
import { messagesJson, messagesStream } from "./anthropic-stream.js";
import { providerErrorBody } from "./error-bodies.js";
import { isObject } from "./json-shapes.js";
import { readResponsesRequest } from "./openai-request.js";
import { responsesJson, responsesStream } from "./openai-stream.js";
import { type Pace, PaceGrid } from "./pace-grid.js";
import { readRequestBody } from "./request-body.js";
import { type MockRequestRecord, RequestLog } from "./request-log.js";
import type { ModelApi, RequestFacts, ScenarioName, ScriptOverride } from "./scenarios.js";
import { scriptReply } from "./scenarios.js";
import { estimateTokens, openSse, type ReplyContext, type SseScript, writeSseEvent } from "./sse.js";

export interface MockModelOptions {
  /** 0 (the default) picks a free port. The server always binds 127.0.0.1. */
  port?: number;
  /** Requests beyond this many get 503. Default 10 000. */
  maxRequests?: number;
  /** When set, the server closes itself after this many milliseconds. */
  ttlMs?: number;
  /** How many of the latest requests `requests` keeps. Default 1 000. */
  maxRecordedRequests?: number;
  /** Request bodies larger than this, on the wire or once decoded (gzip, deflate, br), get 413. Default 32 MiB. */
  maxBodyBytes?: number;
  /** How many bytes of request bodies `requests` keeps in all; older bodies are let go. Default 64 MiB. */
  maxRecordedBodyBytes?: number;
  /** Connections beyond this many open at once are closed as they arrive. Default 64. */
  maxConnections?: number;
  /** A connection with no traffic either way for this long is closed. Default 60 000 ms. */
  idleTimeoutMs?: number;
  /** Forces this scenario for every request, whatever its prompt says. */
  scenario?: ScenarioName;
  /** Decides replies before the scenario table does. */
  script?: ScriptOverride;
  /**
   * Streams every reply at about this many SSE events per second, like a real model's tokens (a bench's load);
   * unset: as fast as the socket takes them (the long scenario keeps its own light pacing).
   */
  eventsPerSecond?: number;
}

export type { MockRequestRecord } from "./request-log.js";

export interface MockModelServer {
  /** `http://127.0.0.1:PORT`, without `/v1`: Codex wants `${baseUrl}/v1`, Claude Code wants `baseUrl`. */
  baseUrl: string;
  port: number;
  requests: MockRequestRecord[];
  /** Settles when the server has closed, by `close()` or by its time to live. */
  closed: Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_MAX_REQUESTS = 10_000;
const DEFAULT_MAX_RECORDS = 1_000;
const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
const DEFAULT_MAX_RECORDED_BODY_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_CONNECTIONS = 64;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export async function startMockModel(options: MockModelOptions = {}): Promise<MockModelServer> {
  const log = new RequestLog(
    options.maxRecordedRequests ?? DEFAULT_MAX_RECORDS,
    options.maxRecordedBodyBytes ?? DEFAULT_MAX_RECORDED_BODY_BYTES,
  );
  let received = 0;

  const server = createServer((request, response) => {
    received += 1;
    const record: MockRequestRecord = {
      method: request.method ?? "GET",
      path: request.url ?? "/",
      headers: request.headers,
      body: undefined,
      bodyBytes: 0,
      bodyDropped: false,
      scenario: undefined,
      status: 0,
    };
    log.add(record);
    response.on("close", () => {
      record.status = response.headersSent ? response.statusCode : 0;
    });
    if (received > (options.maxRequests ?? DEFAULT_MAX_REQUESTS)) {
      sendJson(
        response,
        503,
        providerErrorBody(apiOfPath(record.path), 503, "mock model request cap reached"),
      );
      request.resume();
      return;
    }
    handle(request, response, record, received, options, log).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
      else response.destroy();
    });
  });

  // Caps on what clients can hold open: a connection past the cap is closed as it arrives, an idle one (no bytes
  // either way, e.g. one that never sends a request) is closed after idleTimeoutMs.
  server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  server.timeout = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  server.headersTimeout = Math.min(server.headersTimeout, server.timeout);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
  const close = async () => {
    if (!server.listening) return closed;
    server.close();
    server.closeAllConnections();
    return closed;
  };
  if (options.ttlMs !== undefined) setTimeout(() => void close(), options.ttlMs).unref();
  return { baseUrl: `http://127.0.0.1:${port}`, port, requests: log.records, closed, close };
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  record: MockRequestRecord,
  requestNumber: number,
  options: MockModelOptions,
  log: RequestLog,
): Promise<void> {
  const path = new URL(record.path, "http://127.0.0.1").pathname.replace(/\/+$/, "") || "/";
  const api = apiOfPath(path);
  const read = await readRequestBody(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  if (read.kind === "too-large") {
    // the rest of the body is never read: the connection goes once the answer is out
    return sendJson(response, 413, providerErrorBody(api, 413, "request body too large"), {
      connection: "close",
    });
  }
  if (read.kind === "unsupported-encoding")
    return sendJson(response, 415, providerErrorBody(api, 400, "unsupported content-encoding"));
  if (read.kind === "bad-encoding")
    return sendJson(response, 400, providerErrorBody(api, 400, `cannot decode the body: ${read.message}`));
  const decoded = read.text;
  const body = parseJson(decoded);
  log.keepBody(record, body, Buffer.byteLength(decoded));

  if (path === "/" && (record.method === "GET" || record.method === "HEAD"))
    return sendJson(response, 200, { ok: true, server: "provider-runtime mock model" });
  if (record.method !== "POST")
    return sendJson(response, 404, providerErrorBody(api, 404, `no route ${record.method} ${path}`));
  if (path === "/v1/messages/count_tokens")
    return sendJson(response, 200, { input_tokens: estimateTokens(decoded.length) });
  if (path !== "/v1/responses" && path !== "/responses" && path !== "/v1/messages")
    return sendJson(response, 404, providerErrorBody(api, 404, `no route POST ${path}`));
  if (!isObject(body))
    return sendJson(response, 400, providerErrorBody(api, 400, "body is not a JSON object"));

  const facts: RequestFacts =
    api === "anthropic-messages" ? readMessagesRequest(body) : readResponsesRequest(body);
  const reply = scriptReply(facts, { scenario: options.scenario, script: options.script });
  record.scenario = reply.label;
  if (reply.kind === "error") {
    const message = `mock ${reply.status} error (scenario ${reply.label})`;
    // An agent that retries by itself (OpenCode retries a 5xx five times, 2 s apart and doubling, unless the
    // answer says when) retries at once: a scripted error costs no waiting.
    return sendJson(response, reply.status, providerErrorBody(api, reply.status, message), {
      "retry-after-ms": "0",
    });
  }
  const context: ReplyContext = {
    requestNumber,
    model: typeof body.model === "string" ? body.model : "mock-model",
    inputTokens: estimateTokens(decoded.length),
  };
  if (body.stream !== true) {
    const json = api === "anthropic-messages" ? messagesJson(reply, context) : responsesJson(reply, context);
    // Claude Code falls back to a non-streaming request when a stream breaks; a cutoff must break that one too.
    if (reply.cutOffAfterDeltas !== undefined) return sendCutJson(response, json);
    return sendJson(response, 200, json);
  }
  await sendScript(
    response,
    api === "anthropic-messages" ? messagesStream(reply, context) : responsesStream(reply, context),
    paceOf(options.eventsPerSecond, reply.label),
  );
}

/** The long stream is paced like a real model's (about a second), so a host's interrupt can land mid-stream. */
const LONG_STREAM_PACE = { everyEvents: 25, delayMs: 8 };

function paceOf(eventsPerSecond: number | undefined, label: string): Pace | undefined {
  if (eventsPerSecond !== undefined && eventsPerSecond > 0) {
    // timers below a few ms are coarse: at high rates, sleep after a few events rather than after each
    const everyEvents = Math.max(1, Math.round(eventsPerSecond / 200));
    return { everyEvents, delayMs: (1000 * everyEvents) / eventsPerSecond };
  }
  return label === "long" ? LONG_STREAM_PACE : undefined;
}

async function sendScript(response: ServerResponse, script: SseScript, pace?: Pace): Promise<void> {
  openSse(response);
  const count = script.cutAfterEvents ?? script.events.length;
  const grid = pace === undefined ? undefined : new PaceGrid(pace, () => performance.now());
  for (const event of script.events.slice(0, count)) {
    if (response.destroyed) return;
    writeSseEvent(response, event);
    const wait = grid?.afterEvent();
    if (wait !== undefined) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  if (script.cutAfterEvents === undefined) {
    response.end();
    return;
  }
  // Destroy only once the partial stream reached the socket, so the client sees a started, then broken, stream.
  response.write("", () => response.socket?.destroy());
}

function sendCutJson(response: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.write(text.slice(0, Math.floor(text.length / 2)), () => response.socket?.destroy());
}

function apiOfPath(path: string): ModelApi {
  return path.includes("/messages") ? "anthropic-messages" : "openai-responses";
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
