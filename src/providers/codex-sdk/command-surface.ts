import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ThreadOptions, UserInput } from "@openai/codex-sdk";
import type { CanonicalMode, McpServerSpec } from "../../contracts/driver.js";
import type { ResolvedAttachment } from "../../drivers/attachments.js";
import type { CodexConfig } from "../../drivers/provider-options.js";
import { makePrivateSubdir } from "../../drivers/temp-dirs.js";
import { codexMcpConfig } from "../codex/command-surface.js";

/**
 * The exec side of the command surface: images as `local_image` (inline data is written to a file of the
 * session first), the thread options of each canonical mode, MCP servers as `--config mcp_servers`.
 */

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** exec's input: the text and one `local_image` per image. */
export async function execInput(
  text: string,
  attachments: readonly ResolvedAttachment[],
  sessionDir: string | undefined,
): Promise<string | UserInput[]> {
  if (attachments.length === 0) return text;
  const input: UserInput[] = [{ type: "text", text }];
  for (const [index, attachment] of attachments.entries()) {
    let path = attachment.path;
    if (path === undefined) {
      if (sessionDir === undefined) throw new Error("codex-sdk driver: no session dir for an inline image");
      const dir = await makePrivateSubdir(join(sessionDir, "attachments"));
      path = join(dir, `${Date.now()}-${index}.${EXTENSIONS[attachment.mediaType] ?? "bin"}`);
      await writeFile(path, Buffer.from(attachment.data, "base64"), { mode: 0o600 });
    }
    input.push({ type: "local_image", path });
  }
  return input;
}

/** exec's approval and sandbox options of each canonical mode (exec cannot ask, so there is no `ask`). */
export const EXEC_MODE_OPTIONS = {
  edits: { approvalPolicy: "never", sandboxMode: "workspace-write" },
  plan: { approvalPolicy: "never", sandboxMode: "read-only" },
  full: { approvalPolicy: "never", sandboxMode: "danger-full-access" },
} as const satisfies Record<Exclude<CanonicalMode, "ask">, ThreadOptions>;

/**
 * MCP servers for exec. exec has no approval channel and Codex asks before an MCP tool runs, so without
 * `default_tools_approval_mode = "approve"` every call would fail ("requires approval, but approval policy is
 * never"): the host that gives exec a server approves its tools.
 */
export function execMcpConfig(servers: readonly McpServerSpec[] | undefined): CodexConfig {
  if (servers === undefined || servers.length === 0) return {};
  const table = codexMcpConfig(servers) as unknown as Record<string, CodexConfig>;
  for (const server of Object.values(table)) server.default_tools_approval_mode = "approve";
  return { mcp_servers: table };
}
