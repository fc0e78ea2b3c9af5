import type { RuntimeEvent } from "../contracts/events.js";
import { itemDiffs, itemSummary } from "./item-summary.js";
import { escapeControls } from "./terminal-text.js";

export interface TimelineOptions {
  color: boolean;
}

const CODES = { dim: 2, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const;
type Color = keyof typeof CODES;

const FAMILY_COLOR: Array<[prefix: string, color: Color]> = [
  ["session.", "blue"],
  ["thread.", "blue"],
  ["turn.", "magenta"],
  ["item.", "cyan"],
  ["request.", "yellow"],
  ["user-input.", "yellow"],
  ["runtime.error", "red"],
  ["runtime.warning", "yellow"],
];

/**
 * A readable, coloured timeline. Consecutive content deltas of one item and stream are gathered into one line,
 * so the output reads like the conversation rather than like the wire.
 */
export class TimelineRenderer {
  readonly #color: boolean;
  #pending: { key: string; head: string; text: string } | undefined;

  constructor(options: TimelineOptions) {
    this.#color = options.color;
  }

  render(event: RuntimeEvent): string[] {
    if (event.type === "content.delta") {
      const key = `${event.itemId ?? ""}/${event.payload.streamKind}`;
      if (this.#pending?.key === key) {
        this.#pending.text += event.payload.delta;
        return [];
      }
      const lines = this.flush();
      this.#pending = { key, head: this.#head(event), text: event.payload.delta };
      return lines;
    }
    const line = `${this.#head(event)} ${escapeControls(this.#summary(event))}`;
    const diffs = event.type === "item.completed" ? itemDiffs(event.payload) : [];
    return [...this.flush(), line, ...diffs.map((diff) => this.#indented(diff))];
  }

  #indented(text: string): string {
    return escapeControls(text)
      .replace(/\n+$/, "")
      .split("\n")
      .map(
        (line) =>
          `    ${this.#paint(line.startsWith("+") ? "green" : line.startsWith("-") ? "red" : "dim", line)}`,
      )
      .join("\n");
  }

  flush(): string[] {
    const pending = this.#pending;
    if (pending === undefined) return [];
    this.#pending = undefined;
    return [
      `${pending.head} ${this.#paint("dim", "│")} ${escapeControls(pending.text).replace(/\n+$/, "").replace(/\n/g, "\n    ")}`,
    ];
  }

  #head(event: RuntimeEvent): string {
    // a file given to `view` may hold anything, even in the envelope
    const time = escapeControls(String(event.createdAt).slice(11, 19));
    const color = FAMILY_COLOR.find(([prefix]) => event.type.startsWith(prefix))?.[1];
    const type = escapeControls(String(event.type)).padEnd(26);
    return `${this.#paint("dim", `${time} #${String(event.sequence).padStart(4)}`)} ${color ? this.#paint(color, type) : type}`;
  }

  #summary(event: RuntimeEvent): string {
    switch (event.type) {
      case "item.started":
      case "item.updated":
      case "item.completed":
        return [event.payload.itemType, event.payload.status, itemSummary(event.payload)]
          .filter(Boolean)
          .join(" · ");
      case "turn.completed":
        return [event.payload.state, event.payload.stopReason, event.payload.errorMessage]
          .filter(Boolean)
          .join(" · ");
      case "request.opened":
        return [event.payload.requestType, event.payload.detail].filter(Boolean).join(" · ");
      case "request.resolved":
        return [event.payload.requestType, event.payload.decision].filter(Boolean).join(" → ");
      case "runtime.warning":
      case "runtime.error":
        return event.payload.message;
      case "provider.event":
        return [event.payload.name, event.payload.summary].filter(Boolean).join(" · ");
      case "session.state.changed":
      case "thread.state.changed":
        return event.payload.state;
      case "turn.plan.updated":
        return event.payload.plan.map((s) => `[${s.status}] ${s.step}`).join("; ");
      default:
        return compactJson(event.payload);
    }
  }

  #paint(color: Color, text: string): string {
    return this.#color ? `\u001b[${CODES[color]}m${text}\u001b[0m` : text;
  }
}

function compactJson(value: unknown): string {
  const text = JSON.stringify(value) ?? "";
  return text === "{}" ? "" : text.length > 160 ? `${text.slice(0, 160)}…` : text;
}
