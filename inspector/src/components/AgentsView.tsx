import { useEffect, useState } from "preact/hooks";
import type { AgentInfo, DriverCapabilities } from "../../../src/contracts/commands.js";
import type { InspectorApi } from "../api.js";

const FLAGS: Array<keyof DriverCapabilities> = [
  "approvals",
  "questions",
  "subagents",
  "plan",
  "steer",
  "queue",
  "fork",
  "setModel",
  "setMode",
  "effort",
  "mcpServers",
  "resume",
];

/** `GET /v1/agents`: each agent, installed or not, its version against the tested one, its capabilities. */
export function AgentsView({ api, onClose }: { api: InspectorApi; onClose: () => void }) {
  const [agents, setAgents] = useState<AgentInfo[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api
      .listAgents()
      .then((body) => setAgents(body.agents))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [api]);
  return (
    <section class="agents-view" aria-label="Agents">
      <header class="agents-head">
        <h2>Agents</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {error && <p class="error-text">{error}</p>}
      {agents === undefined && error === undefined && <p class="meta">Loading…</p>}
      <table>
        <thead>
          <tr>
            <th>Agent</th>
            <th>Installed</th>
            <th>Version</th>
            <th>Tested</th>
            <th>Capabilities</th>
          </tr>
        </thead>
        <tbody>
          {agents?.map((agent) => {
            const name = agent.agent ?? agent.provider;
            const caps = agent.capabilities ?? {};
            return (
              <tr key={`${agent.provider}/${name}`} data-agent={name}>
                <th scope="row">
                  {name}
                  {agent.agent && <span class="meta"> ({agent.provider})</span>}
                </th>
                <td>{agent.installed ? "yes" : "no"}</td>
                <td data-version>{agent.version ?? "–"}</td>
                <td>
                  {agent.testedVersion ?? "–"}
                  {agent.version && agent.testedVersion && agent.version !== agent.testedVersion && (
                    <span class="badge waiting"> untested</span>
                  )}
                </td>
                <td class="capabilities">
                  {FLAGS.filter((flag) => caps[flag] === true).map((flag) => (
                    <span key={flag} class="badge">
                      {flag}
                    </span>
                  ))}
                  {(caps.attachments ?? []).map((kind) => (
                    <span key={kind} class="badge">
                      attach {kind}
                    </span>
                  ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
