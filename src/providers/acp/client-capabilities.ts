import { isObject, type JsonObject } from "../../kit/guards.js";

/**
 * What this runtime's client tells an agent in `initialize`: no files or terminals of its own (the agent runs
 * them), but questions as form and URL elicitations (answered by the host), subagent sessions and plan updates
 * (mapped to linked items, tasks and `turn.plan.updated`), and live notices. The maintained adapters offer their
 * question tool and subagent sessions only to clients that declare these (claude-agent-acp 0.101: AskUserQuestion
 * needs `elicitation.form`, subagent updates need `subagents`). `subagents` and `plan` are in the SDK's unstable
 * schema only, hence the plain object.
 */
export const ADVERTISED_CLIENT_CAPABILITIES = {
  fs: { readTextFile: false, writeTextFile: false },
  terminal: false,
  elicitation: { form: {}, url: {} },
  subagents: {},
  plan: {},
} as const;

/**
 * What the client told the agent it serves (`initialize`'s `clientCapabilities`): an `fs/*` or `terminal/*` call
 * of a capability the client did not offer is refused by the SDK (-32601), so it is a provider.event, not a
 * request a host could answer. Before any `initialize` is seen (a recording of another client) every capability
 * counts as offered.
 */
export class ClientCapabilities {
  #offered: { readText: boolean; writeText: boolean; terminal: boolean } | undefined;

  /** Our `initialize` request. */
  advertised(params: JsonObject): void {
    const capabilities = isObject(params.clientCapabilities) ? params.clientCapabilities : {};
    const fs = isObject(capabilities.fs) ? capabilities.fs : {};
    this.#offered = {
      readText: fs.readTextFile === true,
      writeText: fs.writeTextFile === true,
      terminal: capabilities.terminal === true,
    };
  }

  /** The capability a client method needs, when the client did not offer it; undefined when it is served. */
  refused(method: string): string | undefined {
    const offered = this.#offered;
    if (offered === undefined) return undefined;
    if (method === "fs/read_text_file" && !offered.readText) return "fs.readTextFile";
    if (method === "fs/write_text_file" && !offered.writeText) return "fs.writeTextFile";
    if (method.startsWith("terminal/") && !offered.terminal) return "terminal";
    return undefined;
  }
}
