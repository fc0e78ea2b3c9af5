import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { BaseMapper, type MessageEntry } from "../../kit/base-mapper.js";
import { raw } from "../../kit/event-builder.js";
import { isObject, own, str } from "../../kit/guards.js";
import { idScopeOf, mintId } from "../../kit/ids.js";
import type { MapperOptions } from "../../kit/mapper.js";
import { malformedRecordWarning, unknownKindWarning } from "../../kit/warnings.js";
import { type ClaudeContext, emit } from "./context.js";
import { CLAUDE_IN_KINDS, CLAUDE_OUT_KINDS, kindOf } from "./message-table.js";
import { PERMISSION_DECISION, PERMISSION_REQUEST } from "./records.js";
import { ClaudeState } from "./state.js";
import { openSessionAndThread } from "./system-messages.js";
import { mapResult } from "./turns.js";

/** The `claude-sdk` mapper: Claude Agent SDK messages and the driver's permission records → canonical events. */
export class ClaudeSdkMapper extends BaseMapper {
  readonly state: ClaudeState;

  constructor(options: MapperOptions) {
    super("claude-sdk", "claude", options);
    this.state = new ClaudeState(idScopeOf(options), this.cap);
  }

  protected rawOf(entry: MessageEntry): RuntimeEventRaw {
    const msg = entry.msg;
    if (!isObject(msg)) return raw("claude.sdk.message", msg);
    const type = str(msg.type);
    const source =
      type === PERMISSION_REQUEST || type === PERMISSION_DECISION
        ? "claude.sdk.permission"
        : "claude.sdk.message";
    return raw(source, msg, undefined, kindOf(msg));
  }

  protected mapMessage(entry: MessageEntry): RuntimeEvent[] {
    const rawRecord = this.rawOf(entry);
    const msg = entry.msg;
    if (!isObject(msg) || str(msg.type) === undefined)
      return [
        malformedRecordWarning(this.builder, "claude message", "not an object with a string type", rawRecord),
      ];
    const ctx: ClaudeContext = { msg, raw: rawRecord, builder: this.builder, state: this.state };
    const opening = this.#noteSession(ctx);
    const events = this.#mapKind(ctx, entry.dir);
    return opening.length === 0 ? events : [...opening, ...events];
  }

  #mapKind(ctx: ClaudeContext, dir: MessageEntry["dir"]): RuntimeEvent[] {
    const kind = kindOf(ctx.msg);
    const row = own(dir === "out" ? CLAUDE_OUT_KINDS : CLAUDE_IN_KINDS, kind);
    if (row === undefined) return this.#unknown(ctx, dir === "out" ? `out:${kind}` : kind);
    const events = row.handle(ctx);
    // Stream framing (message_start/_delta/_stop, input JSON and signature deltas) changes no canonical state, but
    // every inbound record is accounted for: it shows as a provider event carrying its raw.
    if (events.length === 0 && dir === "in")
      return [emit(ctx, "provider.event", { name: streamKindOf(ctx.msg, kind) })];
    return events;
  }

  /**
   * Claude's session_id is our thread: a record naming a session id not seen before makes it the thread, and the
   * session and thread start before the record's own events (an init message only adds its configuration).
   */
  #noteSession(ctx: ClaudeContext): RuntimeEvent[] {
    const sessionKey = str(ctx.msg.session_id);
    if (sessionKey === undefined || sessionKey.length === 0 || sessionKey === this.state.providerSessionId)
      return [];
    this.state.providerSessionId = sessionKey;
    this.state.threadId = mintId(this.state.sessionId, "thread", sessionKey);
    return openSessionAndThread(ctx);
  }

  /**
   * Unknown kinds warn once per kind (later ones are provider events, so a new subtype cannot flood the host);
   * an unknown result subtype still ends its turn.
   */
  #unknown(ctx: ClaudeContext, kind: string): RuntimeEvent[] {
    const first = !this.state.warnedKinds.has(kind);
    this.state.warnedKinds.set(kind, true);
    const events = first
      ? [
          unknownKindWarning(this.builder, "Claude message kind", kind, ctx.raw, {
            threadId: this.state.threadId,
            turnId: this.state.turnId,
          }),
        ]
      : [emit(ctx, "provider.event", { name: kind, summary: "unknown kind (warned once)" })];
    if (str(ctx.msg.type) === "result" && !kind.startsWith("out:")) events.push(...mapResult(ctx));
    return events;
  }
}

function streamKindOf(msg: Record<string, unknown>, kind: string): string {
  const event = isObject(msg.event) ? msg.event : undefined;
  const type = str(event?.type);
  const delta = isObject(event?.delta) ? str(event.delta.type) : undefined;
  return [kind, type, type === "content_block_delta" ? delta : undefined].filter(Boolean).join(":");
}
