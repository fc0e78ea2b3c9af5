import type { CreateSessionBody } from "../api/schemas.js";
import type { DriverOptions, McpServerSpec, SessionSettings } from "../contracts/driver.js";
import type { SessionPatch, SessionRecord } from "../store/types.js";

/**
 * A session's settings beyond the model (mode, effort) and its MCP servers, kept in the record's `native` part:
 * what a resumed agent must start with again.
 */
export interface NativeControl {
  settings?: { mode?: string; effort?: string };
  mcpServers?: McpServerSpec[];
}

/** What `POST /v1/sessions` asked for, as the record's `native` additions. */
export function createSettingsOf(body: CreateSessionBody): NativeControl {
  const settings: { mode?: string; effort?: string } = {};
  if (body.mode !== undefined) settings.mode = body.mode;
  if (body.effort !== undefined) settings.effort = body.effort;
  const mcpServers = body.mcpServers?.map((server) => stripUndefined(server) as McpServerSpec);
  return {
    ...(Object.keys(settings).length === 0 ? {} : { settings }),
    ...(mcpServers === undefined || mcpServers.length === 0 ? {} : { mcpServers }),
  };
}

/** The driver options of a record's settings and MCP servers. */
export function controlOptionsOf(
  record: SessionRecord,
): Pick<DriverOptions, "mode" | "effort" | "mcpServers"> {
  const native = (record.native ?? {}) as NativeControl;
  return {
    ...(native.settings?.mode === undefined ? {} : { mode: native.settings.mode }),
    ...(native.settings?.effort === undefined ? {} : { effort: native.settings.effort }),
    ...(native.mcpServers === undefined ? {} : { mcpServers: native.mcpServers }),
  };
}

/** What of a parent's record a fork takes over: the mode and effort set on it, its MCP servers. */
export function inheritedControl(record: SessionRecord): NativeControl {
  const native = (record.native ?? {}) as NativeControl;
  return {
    ...(native.settings === undefined ? {} : { settings: native.settings }),
    ...(native.mcpServers === undefined ? {} : { mcpServers: native.mcpServers }),
  };
}

/** The record patch after a `configure()`: the model in its field, mode and effort in `native.settings`. */
export function withSettings(record: SessionRecord, settings: SessionSettings): SessionPatch {
  const patch: SessionPatch = {};
  if (settings.model !== undefined) patch.model = settings.model;
  if (settings.mode !== undefined || settings.effort !== undefined) {
    const native = (record.native ?? {}) as NonNullable<SessionRecord["native"]> & NativeControl;
    patch.native = {
      ...native,
      settings: {
        ...native.settings,
        ...(settings.mode === undefined ? {} : { mode: settings.mode }),
        ...(settings.effort === undefined ? {} : { effort: settings.effort }),
      },
    } as NonNullable<SessionRecord["native"]>;
  }
  return patch;
}

function stripUndefined(value: object): object {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));
}
