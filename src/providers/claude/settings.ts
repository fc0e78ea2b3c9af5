import type { Query } from "@anthropic-ai/claude-agent-sdk";
import {
  type DriverCapabilities,
  InvalidCommandError,
  type SessionSettings,
} from "../../contracts/driver.js";
import type { DriverSession } from "../../drivers/driver-session.js";
import type { ClaudePermissionMode } from "../../drivers/provider-options.js";
import { type CheckedSettings, checkSettings } from "../../drivers/settings.js";
import { raw } from "../../kit/event-builder.js";
import { claudeEffort, claudeModels } from "./command-surface.js";

/** A full Claude model id, which Claude Code takes whether or not `supportedModels()` lists it. */
const CLAUDE_MODEL_ID = /^claude-[a-z0-9.-]+$/;

/**
 * The Claude driver's settings: the models Claude Code reports, and `configure()` as its own calls — `setModel`,
 * `setPermissionMode`, and the effort level through `applyFlagSettings`.
 */
export class ClaudeSettings {
  /** Every model name Claude Code takes (`supportedModels()`' aliases and the ids they resolve to). */
  #accepted = new Set<string>();

  constructor(readonly capabilities: DriverCapabilities) {}

  async readModels(query: Query): Promise<void> {
    try {
      const { models, accepted } = claudeModels(await query.supportedModels());
      if (models.length > 0) this.capabilities.models = models;
      this.#accepted = accepted;
    } catch {
      // the models stay unknown: any claude-* id is passed on
    }
  }

  /** Applies the settings for the turns that follow; resolves with what changed. */
  async apply(query: Query, settings: SessionSettings): Promise<CheckedSettings> {
    const { model, ...rest } = settings;
    const checked = checkSettings("claude", this.capabilities, rest);
    if (model !== undefined) {
      if (!this.#accepted.has(model) && !CLAUDE_MODEL_ID.test(model))
        throw new InvalidCommandError(
          "model",
          `Claude Code does not offer ${model} (it offers ${[...this.#accepted].join(", ")})`,
        );
      await query.setModel(model);
      checked.model = model;
    }
    if (checked.mode !== undefined) await query.setPermissionMode(checked.mode.id as ClaudePermissionMode);
    if (checked.effort !== undefined)
      await query.applyFlagSettings({ effortLevel: claudeEffort(checked.effort) });
    return checked;
  }

  /** A session's starting mode (canonical or native) as Claude Code's permission mode. */
  startMode(mode: string | undefined): ClaudePermissionMode | undefined {
    if (mode === undefined) return undefined;
    return checkSettings("claude", this.capabilities, { mode }).mode?.id as ClaudePermissionMode;
  }
}

export function runsAsRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/**
 * Claude Code exits at once when asked to bypass permissions as root ("--dangerously-skip-permissions cannot be
 * used with root/sudo privileges") unless `IS_SANDBOX=1` says the machine is a deliberate sandbox. The host asked
 * for the mode; the driver sets the variable, and says so.
 */
export function warnSandboxAssumed(session: DriverSession): void {
  session.emitOwn((builder) =>
    builder.emit(
      "runtime.warning",
      {
        message:
          "bypassPermissions as root: IS_SANDBOX=1 is set for Claude Code, which otherwise refuses the mode " +
          "to a root process; every tool runs without asking",
        detail: { reason: "root-bypass-permissions" },
      },
      { raw: raw("runtime.driver", { permissionMode: "bypassPermissions", isSandbox: "1" }) },
    ),
  );
}
