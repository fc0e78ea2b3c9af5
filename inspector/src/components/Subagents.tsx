import type { ThreadView } from "../../../src/projection/thread-view.js";
import { str } from "../format.js";

const SHOWN = 50;

/** The subagents the session spawned (collab_agent_tool_call items), running ones first, with their state. */
export function Subagents({ view }: { view: ThreadView }) {
  const agents = view.items.filter((item) => item.itemType === "collab_agent_tool_call");
  if (agents.length === 0) return null;
  const running = agents.filter((a) => a.status === "inProgress");
  const shown = [...running, ...agents.filter((a) => a.status !== "inProgress").reverse()].slice(0, SHOWN);
  const children = new Map<string, number>();
  for (const item of view.items) {
    if (item.parentItemId !== undefined)
      children.set(item.parentItemId, (children.get(item.parentItemId) ?? 0) + 1);
  }
  return (
    <section class="subagents" aria-label="Subagents">
      <h3>
        Subagents <span class="meta">{running.length} running</span>
      </h3>
      <ul>
        {shown.map((agent) => {
          const d = agent.itemType === "collab_agent_tool_call" ? agent.details : undefined;
          const state = agent.status === "inProgress" ? "running" : agent.status;
          return (
            <li key={agent.itemId} data-subagent-state={state}>
              <span class={`badge ${state === "running" ? "running" : `state-${state}`}`}>{state}</span>{" "}
              {str(d?.agentType) && <code>{d?.agentType}</code>}{" "}
              {str(d?.description) ?? str(agent.title) ?? agent.itemId}
              <span class="meta"> · {children.get(agent.itemId) ?? 0} steps</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
