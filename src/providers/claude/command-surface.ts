import type { McpServerSpec, ModelInfo } from "../../contracts/driver.js";
import type { ResolvedAttachment } from "../../drivers/attachments.js";

/**
 * The Claude side of the command surface (DESIGN.md §11): a prompt with image and document blocks, MCP servers as
 * the SDK's `mcpServers`, the effort scale, and the models of `supportedModels()`.
 */

type ContentBlock = Record<string, unknown>;

/** The user message content: the text, then an image block per image and a document block per file. */
export function claudeContent(
  text: string,
  attachments: readonly ResolvedAttachment[],
): string | ContentBlock[] {
  if (attachments.length === 0) return text;
  const blocks: ContentBlock[] = [{ type: "text", text }];
  for (const attachment of attachments) {
    if (attachment.type === "image") {
      blocks.push({
        type: "image",
        source: { type: "base64", media_type: attachment.mediaType, data: attachment.data },
      });
    } else if (attachment.mediaType === "application/pdf") {
      blocks.push({
        type: "document",
        title: attachment.name,
        source: { type: "base64", media_type: "application/pdf", data: attachment.data },
      });
    } else {
      // Any other file as a plain-text document (the Messages API takes PDF and text sources).
      blocks.push({
        type: "document",
        title: attachment.name,
        source: {
          type: "text",
          media_type: "text/plain",
          data: Buffer.from(attachment.data, "base64").toString("utf8"),
        },
      });
    }
  }
  return blocks;
}

/** The SDK's `mcpServers` option. */
export function claudeMcpServers(servers: readonly McpServerSpec[]): Record<string, Record<string, unknown>> {
  const config: Record<string, Record<string, unknown>> = {};
  for (const server of servers) {
    config[server.name] =
      "command" in server
        ? {
            type: "stdio",
            command: server.command,
            ...(server.args === undefined ? {} : { args: server.args }),
            ...(server.env === undefined ? {} : { env: server.env }),
          }
        : {
            type: "http",
            url: server.url,
            ...(server.headers === undefined ? {} : { headers: server.headers }),
          };
  }
  return config;
}

/** Claude Code's effort level for a canonical effort (`minimal` is its lowest, `low`). */
export function claudeEffort(effort: string): "low" | "medium" | "high" {
  return effort === "minimal" || effort === "low" ? "low" : effort === "medium" ? "medium" : "high";
}

/** `supportedModels()` as `ModelInfo`s, and every name Claude Code takes for them (aliases and resolved ids). */
export function claudeModels(
  listed: readonly { value: string; displayName?: string; resolvedModel?: string }[],
): { models: ModelInfo[]; accepted: Set<string> } {
  const models: ModelInfo[] = [];
  const accepted = new Set<string>();
  for (const entry of listed) {
    models.push({ id: entry.value, ...(entry.displayName === undefined ? {} : { name: entry.displayName }) });
    accepted.add(entry.value);
    if (entry.resolvedModel !== undefined) accepted.add(entry.resolvedModel);
  }
  return { models, accepted };
}
