import type { SessionState } from "../contracts/enums.js";
import type { RuntimeEvent } from "../contracts/events.js";
import { BoundedMap } from "../kit/bounded-map.js";

const TITLE_CHARS = 80;

/** The registry's summary of a session, followed event by event (constant memory). */
export interface SessionSummaryFields {
  state: SessionState;
  openRequests: number;
  exited: boolean;
  title?: string;
  cwd?: string;
  model?: string;
  /** The first event's time. */
  startedAt?: string;
}

export class SessionSummary {
  readonly fields: SessionSummaryFields = { state: "ready", openRequests: 0, exited: false };
  /** Bounded like a mapper's tables: a file that never resolves its requests cannot grow it without end. */
  readonly #open = new BoundedMap<string, true>(10_000);

  observe(event: RuntimeEvent): void {
    const fields = this.fields;
    fields.startedAt ??= event.createdAt;
    switch (event.type) {
      case "session.state.changed":
        fields.state = event.payload.state;
        break;
      case "session.exited":
        fields.exited = true;
        break;
      case "request.opened":
        this.#open.set(event.requestId, true);
        fields.openRequests = this.#open.size;
        break;
      case "request.resolved":
        this.#open.release(event.requestId);
        fields.openRequests = this.#open.size;
        break;
      case "session.configured": {
        const config = event.payload.config as Record<string, unknown> | undefined;
        if (fields.cwd === undefined && typeof config?.cwd === "string") fields.cwd = config.cwd;
        if (typeof config?.model === "string") fields.model = config.model;
        break;
      }
      case "turn.started":
        if (typeof event.payload.model === "string") fields.model = event.payload.model;
        break;
      case "item.completed":
        if (fields.title === undefined && event.payload.itemType === "user_message") {
          const text = (event.payload.details as { text?: unknown } | undefined)?.text;
          if (typeof text === "string" && text.trim().length > 0) fields.title = shorten(text);
        }
        break;
    }
  }
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= TITLE_CHARS ? flat : `${flat.slice(0, TITLE_CHARS - 1)}…`;
}
