import type { CanonicalItemType, CanonicalRequestType } from "../../contracts/enums.js";
import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { BoundedMap } from "../../kit/bounded-map.js";
import type { EventBuilder, EventContext } from "../../kit/event-builder.js";
import type { JsonObject } from "../../kit/guards.js";
import { IdTable } from "../../kit/id-table.js";
import { mintId } from "../../kit/ids.js";
import { ClientCapabilities } from "./client-capabilities.js";
import type { TerminalFacts, ToolFacts } from "./tool-facts.js";

/** A request we sent to the agent, kept until its response arrives. */
export interface OutgoingRequest {
  method: string;
  params: JsonObject;
}

/** A request the agent sent us, open until our answer goes out. */
export interface InboundRequest {
  method: string;
  requestType: CanonicalRequestType;
  jsonRpcId: string;
  turnId: string | undefined;
  options: unknown[];
  isUserInput: boolean;
  /** The request's params, for what its answer completes (a created terminal's command). */
  params: JsonObject;
}

export interface ToolState {
  itemType: CanonicalItemType;
  turnId: string | undefined;
  toolCallId: string;
  facts: ToolFacts;
  /** The subagent item whose child session ran this tool; undefined for the main agent's own. */
  parentItemId?: string | undefined;
}

/** A subagent: its child session, the `collab_agent_tool_call` item that stands for it, and its task. */
export interface SubagentState {
  childSessionId: string;
  turnId: string | undefined;
  taskId: string;
  description: string;
  agentType: string | undefined;
  prompt: string | undefined;
  /** The child said it is idle (its work is done): the task has completed. */
  idle: boolean;
}

type TextKind = "assistant_message" | "reasoning" | "user_message";

interface OpenText {
  itemId: string;
  key: string;
  messageId: string | undefined;
  parentItemId: string | undefined;
}

/**
 * Everything the ACP mapper correlates: our requests by JSON-RPC id (their responses carry only the id), the
 * agent's requests until we answer, turns by prompt id, the open text items, tool calls by toolCallId.
 * JSON-RPC ids are per direction (Cursor numbers its own requests 0, 1, … beside ours), so the tables are apart.
 */
export class AcpSessionState {
  readonly outgoing: BoundedMap<string, OutgoingRequest>;
  readonly inbound: IdTable<InboundRequest>;
  /** JSON-RPC id of an open inbound request → its IdTable key (ids may be reused once answered). */
  readonly #inboundKeys: BoundedMap<string, string>;
  readonly #turnsByPrompt: BoundedMap<string, string>;
  readonly #openTurns: string[] = [];
  readonly tools: IdTable<ToolState>;
  /** Ended tool calls (a late record of one is not a new tool); the facts go with the open entry. */
  readonly closedTools: BoundedMap<string, true>;
  readonly tasks: IdTable<undefined>;
  readonly compactions: IdTable<undefined>;
  /** Terminals we created for the agent (`terminal/create`), by terminalId: a tool's `terminal` content. */
  readonly terminals: BoundedMap<string, TerminalFacts>;
  /** Open text items by scope: "" for the main session, else a child session's id (each has its own). */
  readonly #textByScope = new Map<string, Map<TextKind, OpenText>>();
  /** Subagents by `subagent:<child session id>`; their ids are item ids (the spawner item). */
  readonly subagents: IdTable<SubagentState>;
  /** Child session id → its subagent item, kept after the subagent ended (late updates still link). */
  readonly childSessions: BoundedMap<string, string>;
  /** While a child session's update is mapped: its id and its subagent item (the items' parentItemId). */
  #scope: { sessionId: string; parentItemId: string } | undefined;
  /**
   * Turns in which codex-acp reported `_meta.codex.threadStatus: systemError`, with the text it sent after it
   * (its rendering of the model error): the turn fails with that text as its runtime.error.
   */
  readonly systemErrors: BoundedMap<string, { text: string }>;
  /** Turns we sent `session/cancel` for. */
  readonly cancelRequested: BoundedMap<string, true>;
  readonly clientCapabilities = new ClientCapabilities();
  /** JSON-RPC ids of agent calls refused for a capability we did not offer: our error answer only correlates. */
  readonly refusedCalls: BoundedMap<string, true>;
  /** The MCP servers' names we gave the session (`session/new`, `load`, `fork`): tool titles may name them. */
  mcpServerNames: readonly string[] = [];
  providerSessionId: string | undefined;
  threadId: string | undefined;
  #counter = 0;

  constructor(
    readonly sessionId: string,
    cap: number,
  ) {
    this.outgoing = new BoundedMap(cap);
    this.inbound = new IdTable(sessionId, "request", cap);
    this.#inboundKeys = new BoundedMap(cap);
    this.#turnsByPrompt = new BoundedMap(cap);
    this.tools = new IdTable(sessionId, "item", cap);
    this.closedTools = new BoundedMap(cap);
    this.tasks = new IdTable(sessionId, "task", cap);
    this.subagents = new IdTable(sessionId, "item", cap);
    this.childSessions = new BoundedMap(cap);
    this.compactions = new IdTable(sessionId, "item", cap);
    this.terminals = new BoundedMap(cap);
    this.systemErrors = new BoundedMap(cap);
    this.cancelRequested = new BoundedMap(cap);
    this.refusedCalls = new BoundedMap(cap);
  }

  /** A fresh, deterministic key suffix: replaying the same records gives the same ids. */
  next(): number {
    return ++this.#counter;
  }

  get currentTurnId(): string | undefined {
    return this.#openTurns[this.#openTurns.length - 1];
  }

  /** The envelope fields of an event about the current session and turn. */
  context(raw: RuntimeEventRaw, extra?: EventContext): EventContext {
    if (extra === undefined)
      return {
        threadId: this.threadId,
        turnId: this.currentTurnId,
        providerRefs: this.#sessionRefs,
        raw,
        ...(this.#scope === undefined ? {} : { parentItemId: this.#scope.parentItemId }),
      };
    // Field by field rather than `{threadId, turnId, ...extra, …}`: a key present in `extra` wins even when
    // undefined, as in the spread; without extra refs the cached session refs are the same value.
    const refs = extra.providerRefs;
    return {
      threadId: "threadId" in extra ? extra.threadId : this.threadId,
      turnId: "turnId" in extra ? extra.turnId : this.currentTurnId,
      itemId: extra.itemId,
      requestId: extra.requestId,
      parentItemId: "parentItemId" in extra ? extra.parentItemId : this.#scope?.parentItemId,
      providerRefs:
        refs === undefined ? this.#sessionRefs : { providerSessionId: this.providerSessionId, ...refs },
      raw,
    };
  }

  /** `context(raw, { itemId })` without the spreads: the context of every text chunk and tool update. */
  itemContext(raw: RuntimeEventRaw, itemId: string, parentItemId = this.#scope?.parentItemId): EventContext {
    return {
      threadId: this.threadId,
      turnId: this.currentTurnId,
      itemId,
      providerRefs: this.#sessionRefs,
      raw,
      ...(parentItemId === undefined ? {} : { parentItemId }),
    };
  }

  /** The subagent item of the child session being mapped, if one is. */
  get parentItemId(): string | undefined {
    return this.#scope?.parentItemId;
  }

  /** Maps a child session's update: its items and events link to the subagent item `parentItemId`. */
  inChildSession<T>(sessionId: string, parentItemId: string, map: () => T): T {
    const outer = this.#scope;
    this.#scope = { sessionId, parentItemId };
    try {
      return map();
    } finally {
      this.#scope = outer;
    }
  }

  /** The subagent item of a child session, if the agent announced one (`subagent_update`). */
  subagentItemOf(childSessionId: string): string | undefined {
    return this.childSessions.get(childSessionId);
  }

  get #text(): Map<TextKind, OpenText> {
    const scope = this.#scope?.sessionId ?? "";
    let open = this.#textByScope.get(scope);
    if (open === undefined) {
      open = new Map();
      this.#textByScope.set(scope, open);
    }
    return open;
  }

  /** `{ providerSessionId }`, made when the session is bound: events share it and nothing mutates it. */
  #sessionRefs: { providerSessionId: string } | undefined;

  bindSession(providerSessionId: string): void {
    this.providerSessionId = providerSessionId;
    this.#sessionRefs = { providerSessionId };
    this.threadId = mintId(this.sessionId, "thread", providerSessionId);
  }

  openTurn(promptId: string): string {
    const turnId = mintId(this.sessionId, "turn", `prompt:${promptId}#${this.next()}`);
    this.#turnsByPrompt.set(promptId, turnId);
    this.#openTurns.push(turnId);
    return turnId;
  }

  /** The turn of a prompt still running, if any. */
  turnOfPrompt(promptId: string): string | undefined {
    return this.#turnsByPrompt.get(promptId);
  }

  /** The turn a prompt response ends, removed from the open turns; undefined when the prompt is unknown. */
  closeTurn(promptId: string): string | undefined {
    const turnId = this.#turnsByPrompt.release(promptId);
    if (turnId === undefined) return undefined;
    const index = this.#openTurns.indexOf(turnId);
    if (index >= 0) this.#openTurns.splice(index, 1);
    return turnId;
  }

  openInbound(jsonRpcId: string, request: Omit<InboundRequest, "jsonRpcId" | "turnId">): string {
    const key = `${jsonRpcId}#${this.next()}`;
    this.#inboundKeys.set(jsonRpcId, key);
    const { entry } = this.inbound.open(key, { ...request, jsonRpcId, turnId: this.currentTurnId });
    return entry.id;
  }

  /** The open inbound request answered by a response with this JSON-RPC id. */
  inboundFor(jsonRpcId: string): { id: string; request: InboundRequest } | undefined {
    const key = this.#inboundKeys.get(jsonRpcId);
    const entry = key === undefined ? undefined : this.inbound.get(key);
    return entry === undefined ? undefined : { id: entry.id, request: entry.state };
  }

  closeInbound(jsonRpcId: string): void {
    const key = this.#inboundKeys.release(jsonRpcId);
    if (key !== undefined) this.inbound.close(key);
  }

  /**
   * Appends a chunk to the open text item of a kind, starting one when none is open (or the agent's messageId
   * changed). Opening one kind closes the others: text, thoughts and the user's words alternate as items.
   */
  textItem(
    kind: TextKind,
    messageId: string | undefined,
    b: EventBuilder,
    raw: RuntimeEventRaw,
  ): { itemId: string; started: RuntimeEvent[] } {
    const open = this.#text.get(kind);
    if (open !== undefined && (messageId === undefined || messageId === open.messageId)) {
      return { itemId: open.itemId, started: [] };
    }
    const events = this.closeText(b, raw, (k) => k !== kind || open !== undefined);
    const key = `${kind}#${this.next()}`;
    const itemId = mintId(this.sessionId, "item", key);
    this.#text.set(kind, { itemId, key, messageId, parentItemId: this.#scope?.parentItemId });
    events.push(
      b.emit("item.started", { itemType: kind, status: "inProgress" }, this.itemContext(raw, itemId)),
    );
    return { itemId, started: events };
  }

  /** Completes the open text items of the session being mapped (all, or those `which` selects). */
  closeText(
    b: EventBuilder,
    raw: RuntimeEventRaw,
    which: (kind: TextKind) => boolean = () => true,
  ): RuntimeEvent[] {
    return closeOpenText(this.#text, b, (itemId, parent) => this.itemContext(raw, itemId, parent), which);
  }

  /** Completes the open text items of every session, children too (a turn ends). */
  closeAllText(b: EventBuilder, raw: RuntimeEventRaw): RuntimeEvent[] {
    const events: RuntimeEvent[] = [];
    for (const open of this.#textByScope.values())
      events.push(...closeOpenText(open, b, (itemId, parent) => this.itemContext(raw, itemId, parent)));
    return events;
  }

  /** Tool items still open in a turn (they end with it). */
  openToolsOf(turnId: string): ToolState[] {
    return this.tools
      .openEntries()
      .filter((entry) => entry.state.turnId === turnId)
      .map((entry) => entry.state);
  }
}

function closeOpenText(
  open: Map<TextKind, OpenText>,
  b: EventBuilder,
  contextOf: (itemId: string, parentItemId: string | undefined) => EventContext,
  which: (kind: TextKind) => boolean = () => true,
): RuntimeEvent[] {
  const events: RuntimeEvent[] = [];
  for (const [kind, text] of [...open]) {
    if (!which(kind)) continue;
    open.delete(kind);
    events.push(
      b.emit(
        "item.completed",
        { itemType: kind, status: "completed" },
        contextOf(text.itemId, text.parentItemId),
      ),
    );
  }
  return events;
}
