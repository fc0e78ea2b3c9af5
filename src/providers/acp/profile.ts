import type { ProviderKind, RawSource } from "../../contracts/enums.js";
import type { SourceName } from "../../kit/mapper.js";

/** Which raw tag an ACP message gets, by its JSON-RPC shape. */
export interface AcpRawTags {
  notification: RawSource;
  request: RawSource;
  response: RawSource;
}

/**
 * What differs between ACP agents: the provider and source names, the raw tags, and the extension methods the
 * agent may call besides the v1 surface (`cursor/*` for Cursor). Everything else is the same protocol.
 */
export interface AcpProfile {
  name: "generic" | "cursor";
  source: Extract<SourceName, "acp" | "cursor-acp">;
  provider: Extract<ProviderKind, "acp" | "cursor">;
  tags: AcpRawTags;
  /** Extension methods this profile understands (agent → client requests or notifications). */
  extensionMethods: readonly string[];
}

export const CURSOR_EXTENSION_METHODS = [
  "cursor/ask_question",
  "cursor/create_plan",
  "cursor/update_todos",
  "cursor/task",
  "cursor/generate_image",
] as const;

export const GENERIC_PROFILE: AcpProfile = {
  name: "generic",
  source: "acp",
  provider: "acp",
  tags: { notification: "acp.notification", request: "acp.request", response: "acp.response" },
  extensionMethods: [],
};

export const CURSOR_PROFILE: AcpProfile = {
  name: "cursor",
  source: "cursor-acp",
  provider: "cursor",
  tags: {
    notification: "cursor.acp.notification",
    request: "cursor.acp.request",
    response: "cursor.acp.response",
  },
  extensionMethods: CURSOR_EXTENSION_METHODS,
};
