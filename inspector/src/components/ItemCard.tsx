import { Component, type ComponentChildren } from "preact";
import type { ItemView } from "../../../src/projection/thread-view.js";
import { duration, num, printJson, str } from "../format.js";
import type { LiveThread } from "../live-thread.js";
import { Block, Diff } from "./Diff.js";
import { Guard } from "./Guard.js";
import { RawEvents } from "./RawEvents.js";

/** Nesting deeper than this is not drawn (a parentItemId cycle would otherwise never end). */
const MAX_DEPTH = 8;

interface ItemProps {
  item: ItemView;
  thread: LiveThread;
  /** The item's version in the thread: the card re-renders only when it changes. */
  version: number;
  depth: number;
}

const LABELS: Record<string, string> = {
  user_message: "You",
  assistant_message: "Assistant",
  reasoning: "Reasoning",
  plan: "Plan",
  command_execution: "Command",
  file_change: "File change",
  mcp_tool_call: "MCP tool",
  dynamic_tool_call: "Tool",
  collab_agent_tool_call: "Subagent",
  web_search: "Web search",
  image_view: "Image",
  review_entered: "Review started",
  review_exited: "Review ended",
  context_compaction: "Context compacted",
  error: "Error",
  unknown: "Item",
};

/** One item of the timeline, drawn from its `details` and accumulated text, with its nested items under it. */
export class ItemCard extends Component<ItemProps> {
  override shouldComponentUpdate(next: ItemProps): boolean {
    return next.version !== this.props.version || next.item !== this.props.item;
  }

  override render() {
    const { item, thread, depth } = this.props;
    const children = depth < MAX_DEPTH ? thread.children(item.itemId) : [];
    return (
      <article
        class={`item item-${item.itemType} status-${item.status}`}
        data-item-type={item.itemType}
        data-item-id={item.itemId}
        aria-label={LABELS[item.itemType] ?? "Item"}
      >
        <header class="item-head">
          <span class="item-kind">{LABELS[item.itemType] ?? item.itemType}</span>
          {item.status === "inProgress" && <span class="badge running">running</span>}
          {item.status === "failed" && <span class="badge failed">failed</span>}
          {item.status === "declined" && <span class="badge failed">declined</span>}
          <RawEvents sequences={thread.sequencesOf(item.itemId)} label="Raw" />
        </header>
        <ItemBody item={item} />
        {children.length > 0 && (
          <section class="nested" aria-label="Nested activity">
            {children.map((child) => (
              <GuardedItem key={child.itemId} item={child} thread={thread} depth={depth + 1} />
            ))}
          </section>
        )}
      </article>
    );
  }
}

/** An item drawn inside its own error boundary: one that cannot be drawn leaves the others be. */
export function GuardedItem({ item, thread, depth }: { item: ItemView; thread: LiveThread; depth: number }) {
  const version = thread.itemVersion(item.itemId);
  return (
    <Guard what="item" resetKey={version}>
      <ItemCard item={item} thread={thread} version={version} depth={depth} />
    </Guard>
  );
}

function itemText(item: ItemView): string {
  if (item.text.length > 0) return item.text;
  const details = item.details as { text?: unknown } | undefined;
  return str(details?.text) ?? str(item.detail) ?? "";
}

function ItemBody({ item }: { item: ItemView }): ComponentChildren {
  switch (item.itemType) {
    case "user_message":
    case "assistant_message":
      return <div class="message">{itemText(item)}</div>;
    case "reasoning":
      return (
        <details class="reasoning">
          <summary>Show reasoning</summary>
          <Block text={itemText(item)} />
        </details>
      );
    case "plan":
      return <Block class="plan-text" text={itemText(item)} />;
    case "command_execution":
      return <CommandBody item={item} />;
    case "file_change":
      return <FileChangeBody item={item} />;
    case "mcp_tool_call":
    case "dynamic_tool_call":
      return <ToolBody item={item} />;
    case "collab_agent_tool_call": {
      const d = item.details;
      return (
        <div class="subagent">
          <div>
            {str(d?.agentType) && <code>{d?.agentType}</code>} {str(d?.description) ?? str(item.title) ?? ""}
          </div>
          {str(d?.prompt) && (
            <details>
              <summary>Prompt</summary>
              <Block text={d?.prompt ?? ""} />
            </details>
          )}
        </div>
      );
    }
    case "web_search": {
      const d = item.details;
      return <div>{str(d?.query) ?? str(d?.url) ?? str(item.title) ?? ""}</div>;
    }
    case "error":
      return <div class="error-text">{itemText(item) || str(item.title) || "error"}</div>;
    default:
      return <GenericBody item={item} />;
  }
}

function CommandBody({ item }: { item: Extract<ItemView, { itemType: "command_execution" }> }) {
  const d = item.details;
  const command = str(d?.command) ?? str(item.title) ?? "";
  const exitCode = num(d?.exitCode);
  const took = duration(num(d?.durationMs));
  return (
    <div class="command">
      <div class="command-line">
        <code>$ {command}</code>
      </div>
      <div class="meta command-meta">
        {str(d?.cwd) && <span>in {d?.cwd}</span>}
        {exitCode !== undefined && (
          <span class={`exit ${exitCode === 0 ? "ok" : "bad"}`} data-exit-code={exitCode}>
            exit code {exitCode}
          </span>
        )}
        {took && <span>{took}</span>}
      </div>
      {item.output.length > 0 && <Block class="output" text={item.output} />}
    </div>
  );
}

function FileChangeBody({ item }: { item: Extract<ItemView, { itemType: "file_change" }> }) {
  const changes = Array.isArray(item.details?.changes) ? item.details.changes : [];
  return (
    <div class="file-change">
      {changes.length === 0 && str(item.title) && <div>{item.title}</div>}
      {changes.slice(0, 200).map((change, i) => (
        <section key={i} class="change">
          <div class="change-path">
            <span class={`kind kind-${String(change.kind)}`}>{String(change.kind)}</span>{" "}
            <code>{String(change.path)}</code>
            {str(change.movePath) && (
              <>
                {" "}
                → <code>{change.movePath}</code>
              </>
            )}
          </div>
          {str(change.diff) && <Diff diff={change.diff ?? ""} />}
        </section>
      ))}
      {item.output.length > 0 && <Block class="output" text={item.output} />}
    </div>
  );
}

function ToolBody({
  item,
}: {
  item: Extract<ItemView, { itemType: "mcp_tool_call" | "dynamic_tool_call" }>;
}) {
  const d = item.details as
    | {
        server?: unknown;
        tool?: unknown;
        arguments?: unknown;
        result?: unknown;
        error?: unknown;
        paths?: unknown;
      }
    | undefined;
  const name = [str(d?.server), str(d?.tool)].filter(Boolean).join(" · ") || str(item.title) || "tool";
  return (
    <div class="tool">
      <code>{name}</code>
      {Array.isArray(d?.paths) && d.paths.length > 0 && (
        <span class="meta"> {d.paths.slice(0, 20).join(", ")}</span>
      )}
      {d?.arguments !== undefined && (
        <details>
          <summary>Arguments</summary>
          <pre>{printJson(d.arguments)}</pre>
        </details>
      )}
      {d?.result !== undefined && (
        <details>
          <summary>Result</summary>
          <pre>{printJson(d.result)}</pre>
        </details>
      )}
      {str(d?.error) && <div class="error-text">{String(d?.error)}</div>}
      {item.output.length > 0 && <Block class="output" text={item.output} />}
    </div>
  );
}

function GenericBody({ item }: { item: ItemView }) {
  const text = itemText(item);
  return (
    <div>
      {str(item.title) && <div>{item.title}</div>}
      {text && <Block text={text} />}
      {item.output.length > 0 && <Block class="output" text={item.output} />}
    </div>
  );
}
