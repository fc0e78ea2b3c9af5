import type { CanonicalMode, DriverCapabilities, DriverProvider, ModeInfo } from "../contracts/driver.js";

/**
 * What each driver can do before it has started (`AgentInfo.capabilities`); a started driver adds the models and
 * modes its agent reported. Where a value is false the driver throws `UnsupportedError` with the reason below.
 */

/** The canonical modes as a `ModeInfo` list, for agents that have no named modes of their own (Codex). */
export function canonicalModeList(names: Record<CanonicalMode, string>): ModeInfo[] {
  return (Object.entries(names) as [CanonicalMode, string][]).map(([id, name]) => ({
    id,
    name,
    canonical: id,
  }));
}

export const CODEX_MODES = canonicalModeList({
  ask: "Ask (approval untrusted, workspace-write sandbox)",
  edits: "Edits (approval on-request, workspace-write sandbox)",
  plan: "Plan (approval untrusted, read-only sandbox)",
  full: "Full access (approval never, no sandbox)",
});

const CODEX: DriverCapabilities = {
  approvals: true,
  questions: true,
  subagents: true,
  plan: true,
  attachments: ["image"],
  steer: true,
  queue: true,
  fork: true,
  setModel: true,
  setMode: true,
  effort: true,
  mcpServers: true,
  resume: true,
  modes: CODEX_MODES,
};

const CODEX_SDK: DriverCapabilities = {
  approvals: false,
  questions: false,
  subagents: false,
  plan: true,
  attachments: ["image"],
  steer: false,
  queue: true,
  fork: false,
  setModel: true,
  setMode: true,
  effort: true,
  mcpServers: true,
  resume: true,
  modes: CODEX_MODES.filter((mode) => mode.id !== "ask"),
};

export const CLAUDE_MODES: ModeInfo[] = [
  { id: "default", name: "Default (asks before edits and commands)", canonical: "ask" },
  { id: "acceptEdits", name: "Accept edits", canonical: "edits" },
  { id: "plan", name: "Plan", canonical: "plan" },
  { id: "bypassPermissions", name: "Bypass permissions", canonical: "full" },
  { id: "dontAsk", name: "Don't ask (denies what is not allowed)" },
  { id: "auto", name: "Auto (a model judges each action)" },
];

const CLAUDE: DriverCapabilities = {
  approvals: true,
  questions: true,
  subagents: true,
  plan: true,
  attachments: ["image", "file"],
  steer: true,
  queue: true,
  fork: true,
  setModel: true,
  setMode: true,
  effort: true,
  mcpServers: true,
  resume: true,
  modes: CLAUDE_MODES,
};

/** An ACP agent before its handshake: what the protocol allows; the agent's answers narrow it after `start()`. */
const ACP: DriverCapabilities = {
  approvals: true,
  questions: true,
  subagents: true,
  plan: true,
  attachments: ["image", "file"],
  steer: false,
  queue: true,
  fork: true,
  setModel: true,
  setMode: true,
  effort: false,
  mcpServers: true,
  resume: true,
};

export const BASE_CAPABILITIES: Record<DriverProvider, DriverCapabilities> = {
  codex: CODEX,
  "codex-sdk": CODEX_SDK,
  claude: CLAUDE,
  cursor: ACP,
  acp: ACP,
};

/** A fresh copy of a provider's capabilities (a driver fills in models and modes on its own copy). */
export function capabilitiesOf(provider: DriverProvider): DriverCapabilities {
  const base = BASE_CAPABILITIES[provider];
  return {
    ...base,
    attachments: [...base.attachments],
    ...(base.modes === undefined ? {} : { modes: base.modes.map((mode) => ({ ...mode })) }),
  };
}

/** Why a provider cannot steer a running turn. */
export const STEER_UNSUPPORTED: Partial<Record<DriverProvider, string>> = {
  "codex-sdk": "codex exec takes its input once per run; a running turn cannot be given more",
  acp: "ACP has no call that adds input to a running prompt",
  cursor: "ACP has no call that adds input to a running prompt",
};

/**
 * The native mode a requested mode names: a native id the agent offers as is, else the native mode of that
 * canonical mode. Undefined when the agent offers neither.
 */
export function nativeModeFor(requested: string, modes: readonly ModeInfo[]): ModeInfo | undefined {
  return modes.find((mode) => mode.id === requested) ?? modes.find((mode) => mode.canonical === requested);
}
