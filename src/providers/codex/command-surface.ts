import type { CanonicalMode, McpServerSpec, ModelInfo } from "../../contracts/driver.js";
import type { ResolvedAttachment } from "../../drivers/attachments.js";
import { isObject, type JsonObject, str } from "../../kit/guards.js";

/**
 * The Codex side of the command surface (DESIGN.md §11), shared by the app-server driver: native turn input with
 * images, the approval policy and sandbox of each canonical mode, the models of `model/list`, and MCP servers as
 * Codex config (`mcp_servers.<name>`).
 */

/** `UserInput` items of `turn/start` / `turn/steer`: the text, then each image (a file as `localImage`). */
export function codexUserInput(text: string, attachments: readonly ResolvedAttachment[]): JsonObject[] {
  const input: JsonObject[] = [{ type: "text", text, text_elements: [] }];
  for (const attachment of attachments) {
    input.push(
      attachment.path === undefined
        ? { type: "image", url: `data:${attachment.mediaType};base64,${attachment.data}` }
        : { type: "localImage", path: attachment.path },
    );
  }
  return input;
}

/** The approval policy and sandbox policy (`turn/start` overrides) of each canonical mode. */
export const CODEX_MODE_POLICIES: Record<
  CanonicalMode,
  { approvalPolicy: string; sandboxPolicy: JsonObject }
> = {
  ask: { approvalPolicy: "untrusted", sandboxPolicy: { type: "workspaceWrite" } },
  edits: { approvalPolicy: "on-request", sandboxPolicy: { type: "workspaceWrite" } },
  plan: { approvalPolicy: "untrusted", sandboxPolicy: { type: "readOnly" } },
  full: { approvalPolicy: "never", sandboxPolicy: { type: "dangerFullAccess" } },
};

/** The thread/start `sandbox` value (a mode name, not the turn's policy object) of each canonical mode. */
export const CODEX_THREAD_SANDBOX: Record<CanonicalMode, string> = {
  ask: "workspace-write",
  edits: "workspace-write",
  plan: "read-only",
  full: "danger-full-access",
};

/** `model/list`'s models. */
export function modelsOf(result: JsonObject): ModelInfo[] {
  const data = Array.isArray(result.data) ? result.data : [];
  const models: ModelInfo[] = [];
  for (const entry of data) {
    if (!isObject(entry)) continue;
    const id = str(entry.model) ?? str(entry.id);
    if (id === undefined) continue;
    const name = str(entry.displayName);
    models.push({
      id,
      ...(name === undefined ? {} : { name }),
      ...(entry.isDefault === true ? { default: true } : {}),
    });
  }
  return models;
}

/**
 * How long Codex waits for a host's MCP server to start (its default, 10 s, drops a server that an `npx` install
 * or a busy machine makes slower, and the session goes on without its tools).
 */
const MCP_STARTUP_TIMEOUT_SEC = 60;

/** MCP servers as Codex's `mcp_servers` config table (thread/start `config`, exec `--config`). */
export function codexMcpConfig(servers: readonly McpServerSpec[]): JsonObject {
  const table: JsonObject = {};
  for (const server of servers) {
    const where =
      "command" in server
        ? {
            command: server.command,
            ...(server.args === undefined ? {} : { args: server.args }),
            ...(server.env === undefined ? {} : { env: server.env }),
          }
        : { url: server.url, ...(server.headers === undefined ? {} : { http_headers: server.headers }) };
    table[server.name] = { ...where, startup_timeout_sec: MCP_STARTUP_TIMEOUT_SEC };
  }
  return table;
}
