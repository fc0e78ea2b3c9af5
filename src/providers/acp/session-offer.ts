import type { CanonicalMode, McpServerSpec, ModeInfo, ModelInfo } from "../../contracts/driver.js";
import type { ResolvedAttachment } from "../../drivers/attachments.js";
import { isObject, type JsonObject, str } from "../../kit/guards.js";

/**
 * What an ACP agent offers a session, read from its `initialize` and `session/new` (or `session/load`,
 * `session/fork`) answers: the prompt content it takes, whether it forks, its modes, and its select config
 * options (the model and thought level among them). The driver's capabilities and `configure()` are built on it.
 */
export interface AcpSessionOffer {
  /** `promptCapabilities.image` / `.embeddedContext`. */
  image: boolean;
  embeddedContext: boolean;
  /** `sessionCapabilities.fork` (unstable): the agent takes `session/fork`. */
  fork: boolean;
  modes: ModeInfo[];
  currentModeId: string | undefined;
  /** The config option of category `model`, and its choices. */
  modelOption: { id: string; models: ModelInfo[] } | undefined;
  /** The config option of category `thought_level` (reasoning effort), and its values. */
  effortOption: { id: string; values: string[] } | undefined;
}

/**
 * Known agents' native mode ids that are a canonical mode (docs/modes.md): claude-agent-acp's Claude Code modes,
 * and codex-acp's presets (`read-only` asks before every edit and every command outside the sandbox).
 */
const CANONICAL_BY_MODE_ID: Record<string, CanonicalMode> = {
  default: "ask",
  acceptEdits: "edits",
  plan: "plan",
  bypassPermissions: "full",
  "read-only": "ask",
  "workspace-write": "edits",
  "agent-full-access": "full",
};

export function offerOf(init: unknown, session: unknown): AcpSessionOffer {
  const agentCapabilities = isObject(init) && isObject(init.agentCapabilities) ? init.agentCapabilities : {};
  const prompt = isObject(agentCapabilities.promptCapabilities) ? agentCapabilities.promptCapabilities : {};
  const sessionCapabilities = isObject(agentCapabilities.sessionCapabilities)
    ? agentCapabilities.sessionCapabilities
    : {};
  const opened: JsonObject = isObject(session) ? session : {};
  const modes = isObject(opened.modes) ? opened.modes : {};
  const options = Array.isArray(opened.configOptions) ? opened.configOptions.filter(isObject) : [];
  return {
    image: prompt.image === true,
    embeddedContext: prompt.embeddedContext === true,
    fork: isObject(sessionCapabilities.fork),
    modes: modeList(modes.availableModes),
    currentModeId: str(modes.currentModeId),
    modelOption: modelOptionOf(options),
    effortOption: effortOptionOf(options),
  };
}

function modeList(available: unknown): ModeInfo[] {
  if (!Array.isArray(available)) return [];
  return available.filter(isObject).flatMap((mode) => {
    const id = str(mode.id);
    if (id === undefined) return [];
    const canonical = CANONICAL_BY_MODE_ID[id];
    return [{ id, name: str(mode.name) ?? id, ...(canonical === undefined ? {} : { canonical }) }];
  });
}

function selectValues(option: JsonObject): { value: string; name: string }[] {
  const options = Array.isArray(option.options) ? option.options.filter(isObject) : [];
  // options may be grouped: each group holds its own options
  const flat = options.flatMap((entry) =>
    Array.isArray(entry.options) ? entry.options.filter(isObject) : [entry],
  );
  return flat.flatMap((entry) => {
    const value = str(entry.value);
    return value === undefined ? [] : [{ value, name: str(entry.name) ?? value }];
  });
}

function modelOptionOf(options: JsonObject[]): AcpSessionOffer["modelOption"] {
  const option = options.find((entry) => entry.category === "model" && entry.type === "select");
  const id = option === undefined ? undefined : str(option.id);
  if (option === undefined || id === undefined) return undefined;
  const current = str(option.currentValue);
  const models = selectValues(option).map(({ value, name }) => ({
    id: value,
    name,
    ...(value === current ? { default: true } : {}),
  }));
  return { id, models };
}

function effortOptionOf(options: JsonObject[]): AcpSessionOffer["effortOption"] {
  const option = options.find((entry) => entry.category === "thought_level" && entry.type === "select");
  const id = option === undefined ? undefined : str(option.id);
  if (option === undefined || id === undefined) return undefined;
  return { id, values: selectValues(option).map((entry) => entry.value) };
}

/** MCP servers as `session/new` takes them (stdio, or HTTP). */
export function acpMcpServers(servers: readonly McpServerSpec[] | undefined): unknown[] {
  return (servers ?? []).map((server) =>
    "command" in server
      ? {
          name: server.name,
          command: server.command,
          args: server.args ?? [],
          env: Object.entries(server.env ?? {}).map(([name, value]) => ({ name, value })),
        }
      : {
          type: "http",
          name: server.name,
          url: server.url,
          headers: Object.entries(server.headers ?? {}).map(([name, value]) => ({ name, value })),
        },
  );
}

export type AcpContentBlock = JsonObject;

/** The prompt's content: the text, an `image` block per image, an embedded `resource` per file. */
export function acpPromptContent(
  text: string,
  attachments: readonly ResolvedAttachment[],
): AcpContentBlock[] {
  const content: AcpContentBlock[] = [{ type: "text", text }];
  for (const attachment of attachments) {
    if (attachment.type === "image") {
      content.push({
        type: "image",
        mimeType: attachment.mediaType,
        data: attachment.data,
        ...(attachment.path === undefined ? {} : { uri: `file://${attachment.path}` }),
      });
      continue;
    }
    const uri = attachment.path === undefined ? `attachment:${attachment.name}` : `file://${attachment.path}`;
    const textual = attachment.mediaType.startsWith("text/") || attachment.mediaType === "application/json";
    content.push({
      type: "resource",
      resource: textual
        ? {
            uri,
            mimeType: attachment.mediaType,
            text: Buffer.from(attachment.data, "base64").toString("utf8"),
          }
        : { uri, mimeType: attachment.mediaType, blob: attachment.data },
    });
  }
  return content;
}
