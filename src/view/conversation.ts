import type { RuntimeEvent } from "../contracts/events.js";
import { itemDiffs, itemSummary } from "./item-summary.js";
import { escapeControls } from "./terminal-text.js";

export interface ConversationOptions {
  color: boolean;
}

const CODES = { dim: 2, bold: 1, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const;
type Color = keyof typeof CODES;

/** Lines of a command's output shown under it (its tail); the whole of it stays in the stream. */
const OUTPUT_LINES = 20;

/** What an item gathered while it ran: its streamed text and output. */
interface Gathered {
  text: string;
  output: string;
}

/**
 * The session as a conversation for `chat`: the assistant's messages, commands with their output and exit code,
 * file changes with their diffs, tool calls, subagents, plans, errors, and a line where each turn ends. Protocol
 * chatter (states, deltas as such, `provider.event`, token counts) is left out: `--verbose` shows the timeline.
 */
export class ConversationRenderer {
  readonly #color: boolean;
  readonly #items = new Map<string, Gathered>();
  /** Commands whose `$ command` line is printed (Claude names the command only after the item starts). */
  readonly #announced = new Set<string>();

  constructor(options: ConversationOptions) {
    this.#color = options.color;
  }

  /**
   * Where chat's `/fork` hands over: the parent session's end is not the conversation's, which goes on in the fork
   * (the parent's `session.exited` stays in the stream; `--verbose` and `--json` show it as it is).
   */
  forked(sessionId: string): string[] {
    return [
      this.#paint("dim", `── forked: the conversation goes on in session ${escapeControls(sessionId)}`),
    ];
  }

  /** A subagent's activity is indented under the call that spawned it. */
  render(event: RuntimeEvent): string[] {
    const lines = this.#render(event);
    return event.parentItemId === undefined ? lines : lines.map((line) => `  ┆ ${line}`);
  }

  #render(event: RuntimeEvent): string[] {
    switch (event.type) {
      case "content.delta": {
        if (event.itemId === undefined) return [];
        const item = this.#gathered(event.itemId);
        const kind = event.payload.streamKind;
        if (kind === "assistant_text" || kind === "plan_text") item.text += event.payload.delta;
        else if (kind === "command_output" || kind === "file_change_output" || kind === "unknown")
          item.output += event.payload.delta;
        return [];
      }
      case "item.started":
        return this.#started(event);
      case "item.updated":
        return this.#announce(event);
      case "item.completed":
        return this.#completed(event);
      case "turn.plan.updated":
        return [
          this.#paint("magenta", "plan"),
          ...event.payload.plan.map(
            (s) => `  ${s.status === "completed" ? "✓" : "·"} ${escapeControls(s.step)}`,
          ),
        ];
      case "request.resolved":
        return [this.#paint("dim", `  → ${event.payload.decision ?? "answered"}`)];
      case "turn.started":
        return [this.#paint("dim", "── turn started")];
      case "turn.completed": {
        const { state, errorMessage, usage, totalCostUsd } = event.payload;
        const parts = [`turn ${state}`];
        if (usage?.totalTokens !== undefined)
          parts.push(`${usage.totalTokens.toLocaleString("en-US")} tokens`);
        if (totalCostUsd !== undefined) parts.push(`$${totalCostUsd.toFixed(4)}`);
        const lines = [this.#paint(state === "completed" ? "dim" : "red", `── ${parts.join(" · ")}`)];
        if (errorMessage !== undefined && state !== "completed")
          lines.unshift(this.#paint("red", `error: ${escapeControls(errorMessage)}`));
        return lines;
      }
      case "turn.aborted":
        return [this.#paint("red", `── turn interrupted: ${escapeControls(event.payload.reason)}`)];
      case "runtime.error":
        return [this.#paint("red", `error: ${escapeControls(event.payload.message)}`)];
      case "runtime.warning":
        return [this.#paint("yellow", `warning: ${escapeControls(event.payload.message)}`)];
      case "session.exited":
        return [
          this.#paint(
            "dim",
            `session ended${event.payload.reason ? `: ${escapeControls(event.payload.reason)}` : ""}`,
          ),
        ];
      default:
        return [];
    }
  }

  /** Nothing is held back between events (the timeline's interface). */
  flush(): string[] {
    return [];
  }

  #gathered(itemId: string): Gathered {
    let item = this.#items.get(itemId);
    if (item === undefined) {
      item = { text: "", output: "" };
      this.#items.set(itemId, item);
    }
    return item;
  }

  #started(event: Extract<RuntimeEvent, { type: "item.started" }>): string[] {
    const payload = event.payload;
    const summary = escapeControls(itemSummary(payload) ?? "");
    switch (payload.itemType) {
      case "command_execution":
        return this.#announce(event);
      case "mcp_tool_call":
      case "dynamic_tool_call":
        return [this.#paint("cyan", `tool ${summary}`)];
      case "collab_agent_tool_call":
        return this.#announce(event);
      case "web_search":
        return [this.#paint("cyan", `web search ${summary}`)];
      default:
        return [];
    }
  }

  /** A command's `$ command` line or a subagent's start, once (Claude names them only after the item starts). */
  #announce(event: Extract<RuntimeEvent, { type: `item.${"started" | "updated" | "completed"}` }>): string[] {
    const payload = event.payload;
    let line: string;
    if (payload.itemType === "command_execution" && payload.details?.command !== undefined)
      line = this.#paint("cyan", `$ ${escapeControls(payload.details.command)}`);
    else if (payload.itemType === "collab_agent_tool_call" && payload.details !== undefined)
      line = this.#paint("magenta", `subagent started: ${escapeControls(itemSummary(payload) ?? "")}`);
    else return [];
    if (event.itemId !== undefined) {
      if (this.#announced.has(event.itemId)) return [];
      this.#announced.add(event.itemId);
    }
    return [line];
  }

  #completed(event: Extract<RuntimeEvent, { type: "item.completed" }>): string[] {
    const payload = event.payload;
    const announce = this.#announce(event);
    if (event.itemId !== undefined) this.#announced.delete(event.itemId);
    const gathered = event.itemId === undefined ? undefined : this.#items.get(event.itemId);
    if (event.itemId !== undefined) this.#items.delete(event.itemId);
    const details = payload.details as { text?: unknown } | undefined;
    const text = gathered?.text || (typeof details?.text === "string" ? details.text : "") || "";
    switch (payload.itemType) {
      case "assistant_message":
        return text.length > 0 ? ["", ...this.#block(text), ""] : [];
      case "plan":
        return text.length > 0 ? [this.#paint("magenta", "plan"), ...this.#block(text, "  ")] : [];
      case "command_execution": {
        const d = payload.details;
        const lines = [...announce, ...this.#tail(gathered?.output ?? "")];
        const exit = d?.exitCode;
        const took = d?.durationMs === undefined ? "" : ` · ${Math.round(d.durationMs)} ms`;
        if (exit !== undefined)
          lines.push(this.#paint(exit === 0 ? "green" : "red", `  exit code ${exit}${took}`));
        else if (payload.status !== undefined && payload.status !== "inProgress")
          lines.push(
            this.#paint(payload.status === "completed" ? "dim" : "red", `  ${payload.status}${took}`),
          );
        return lines;
      }
      case "file_change": {
        const summary = escapeControls(itemSummary(payload) ?? "file change");
        const lines = [this.#paint("cyan", `edited ${summary}`)];
        for (const diff of itemDiffs(payload)) lines.push(...this.#diff(diff));
        if (payload.status === "declined" || payload.status === "failed")
          lines.push(this.#paint("red", `  ${payload.status}`));
        return lines;
      }
      case "mcp_tool_call":
      case "dynamic_tool_call": {
        const error = (payload.details as { error?: unknown } | undefined)?.error;
        return typeof error === "string" ? [this.#paint("red", `  ✗ ${escapeControls(error)}`)] : [];
      }
      case "collab_agent_tool_call":
        return [...announce, this.#paint("magenta", `subagent ${payload.status ?? "completed"}`)];
      case "error":
        return [this.#paint("red", `error: ${escapeControls(text || payload.title || "")}`)];
      default:
        return [];
    }
  }

  #block(text: string, indent = ""): string[] {
    return escapeControls(text.replace(/\n+$/, ""))
      .split("\n")
      .map((line) => `${indent}${line}`);
  }

  #tail(output: string): string[] {
    const lines = escapeControls(output.replace(/\n+$/, "")).split("\n");
    if (output.length === 0) return [];
    const shown = lines.slice(-OUTPUT_LINES).map((line) => this.#paint("dim", `  │ ${line}`));
    if (lines.length > OUTPUT_LINES)
      shown.unshift(this.#paint("dim", `  │ … ${lines.length - OUTPUT_LINES} earlier lines`));
    return shown;
  }

  #diff(diff: string): string[] {
    return escapeControls(diff.replace(/\n+$/, ""))
      .split("\n")
      .map(
        (line) =>
          `    ${this.#paint(line.startsWith("+") ? "green" : line.startsWith("-") ? "red" : "dim", line)}`,
      );
  }

  #paint(color: Color, text: string): string {
    return this.#color ? `\u001b[${CODES[color]}m${text}\u001b[0m` : text;
  }
}
