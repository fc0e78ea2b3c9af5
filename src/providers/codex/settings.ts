import type {
  CanonicalMode,
  DriverCapabilities,
  DriverOptions,
  SessionSettings,
} from "../../contracts/driver.js";
import { type CheckedSettings, checkSettings } from "../../drivers/settings.js";
import type { JsonObject } from "../../kit/guards.js";
import { CODEX_MODE_POLICIES, CODEX_THREAD_SANDBOX, codexMcpConfig, modelsOf } from "./command-surface.js";

/**
 * The app-server driver's settings: the models of `model/list`, the thread's starting mode and MCP servers, and
 * `configure()` as `turn/start` overrides (Codex keeps each for the turns after it).
 */
export class CodexSettings {
  /** The overrides the next `turn/start` carries. */
  overrides: JsonObject = {};

  constructor(
    readonly capabilities: DriverCapabilities,
    readonly options: DriverOptions,
  ) {
    if (options.effort !== undefined) this.overrides.effort = options.effort;
  }

  /** `model/list`: the models the host may pick; none when Codex cannot list them (any name is passed on then). */
  async readModels(call: (method: string, params: JsonObject) => Promise<JsonObject>): Promise<void> {
    try {
      const models = modelsOf(await call("model/list", {}));
      if (models.length > 0) this.capabilities.models = models;
    } catch {
      // an older app-server without model/list
    }
  }

  /** `thread/start` / `thread/resume` params: cwd, the starting mode's policies, model, MCP servers. */
  threadParams(): JsonObject {
    const { options } = this;
    const mode = this.#startMode();
    return {
      cwd: options.cwd,
      approvalPolicy: CODEX_MODE_POLICIES[mode].approvalPolicy,
      sandbox: CODEX_THREAD_SANDBOX[mode],
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.mcpServers === undefined || options.mcpServers.length === 0
        ? {}
        : { config: { mcp_servers: codexMcpConfig(options.mcpServers) } }),
    };
  }

  /** Model, mode (approval and sandbox policy) and effort as overrides of the next turns. */
  apply(settings: SessionSettings): { checked: CheckedSettings; overrides: JsonObject } {
    const checked = checkSettings("codex", this.capabilities, settings);
    const overrides: JsonObject = {};
    if (checked.model !== undefined) overrides.model = checked.model;
    if (checked.effort !== undefined) overrides.effort = checked.effort;
    if (checked.mode?.canonical !== undefined)
      Object.assign(overrides, CODEX_MODE_POLICIES[checked.mode.canonical]);
    this.overrides = { ...this.overrides, ...overrides };
    return { checked, overrides };
  }

  /** The canonical mode the session starts in (`options.mode`; default `ask`, which asks for everything). */
  #startMode(): CanonicalMode {
    const mode = this.options.mode;
    if (mode === undefined) return "ask";
    return checkSettings("codex", this.capabilities, { mode }).mode?.canonical ?? "ask";
  }
}
