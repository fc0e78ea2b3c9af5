import {
  type DriverCapabilities,
  EFFORT_LEVELS,
  InvalidCommandError,
  type ModeInfo,
  type SessionSettings,
  UnsupportedError,
} from "../contracts/driver.js";
import { raw } from "../kit/event-builder.js";
import { nativeModeFor } from "./capabilities.js";
import type { DriverSession } from "./driver-session.js";

/** `configure()`'s settings checked against what the agent offers: the mode resolved to its native one. */
export interface CheckedSettings {
  model?: string;
  mode?: ModeInfo;
  effort?: string;
}

/**
 * Checks `settings` against the driver's capabilities: a setting it cannot change is an `UnsupportedError`
 * (`reasons` says why, per setting), a value it does not offer an `InvalidCommandError` naming the field.
 */
export function checkSettings(
  provider: string,
  capabilities: DriverCapabilities,
  settings: SessionSettings,
  reasons: Partial<Record<keyof SessionSettings, string>> = {},
): CheckedSettings {
  const checked: CheckedSettings = {};
  if (settings.model !== undefined) {
    if (!capabilities.setModel)
      throw new UnsupportedError(provider, "change the model", reasons.model ?? "the agent has no such call");
    const models = capabilities.models ?? [];
    if (models.length > 0 && !models.some((model) => model.id === settings.model))
      throw new InvalidCommandError(
        "model",
        `the agent does not offer ${settings.model} (it offers ${models.map((m) => m.id).join(", ")})`,
      );
    checked.model = settings.model;
  }
  if (settings.mode !== undefined) {
    if (!capabilities.setMode)
      throw new UnsupportedError(provider, "change the mode", reasons.mode ?? "the agent has no such call");
    const modes = capabilities.modes ?? [];
    const mode = nativeModeFor(settings.mode, modes);
    if (mode === undefined)
      throw new InvalidCommandError(
        "mode",
        `the agent offers no mode ${settings.mode} (it offers ${modes.map((m) => m.id).join(", ") || "none"})`,
      );
    checked.mode = mode;
  }
  if (settings.effort !== undefined) {
    if (!capabilities.effort)
      throw new UnsupportedError(
        provider,
        "change the reasoning effort",
        reasons.effort ?? "the agent has no such setting",
      );
    if (!(EFFORT_LEVELS as readonly string[]).includes(settings.effort))
      throw new InvalidCommandError("effort", `one of ${EFFORT_LEVELS.join(", ")}`);
    checked.effort = settings.effort;
  }
  return checked;
}

/** The `session.configured` of a `configure()` call: the settings that changed, under canonical names. */
export function emitConfigured(session: DriverSession, checked: CheckedSettings, native?: unknown): void {
  const config: Record<string, unknown> = {};
  if (checked.model !== undefined) config.model = checked.model;
  if (checked.mode !== undefined)
    config.mode = {
      id: checked.mode.id,
      ...(checked.mode.canonical === undefined ? {} : { canonical: checked.mode.canonical }),
    };
  if (checked.effort !== undefined) config.effort = checked.effort;
  if (Object.keys(config).length === 0) return;
  session.emitOwn((builder) =>
    builder.emit(
      "session.configured",
      { config },
      { raw: raw("runtime.driver", { configure: config, ...(native === undefined ? {} : { native }) }) },
    ),
  );
}
