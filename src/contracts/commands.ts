/**
 * The command surface every driver shares beyond a text prompt (DESIGN.md §11): attachments, how a turn is
 * delivered while another runs, settings changed mid-session, MCP servers given to the agent, and what each
 * provider can do. Plain types: the server's zod schemas (src/api/control-schemas.ts) describe the same shapes.
 */

/** An image or file given with a prompt: inline base64 data, or a path on the machine that runs the agent. */
export type TurnAttachment =
  | {
      type: "image";
      /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`. */
      mediaType: string;
      /** The bytes, base64. */
      data: string;
      name?: string;
    }
  | {
      type: "image" | "file";
      /** An absolute path (or one relative to the session's cwd). */
      path: string;
      mediaType?: string;
      name?: string;
    };

/**
 * What to do with a turn sent while one runs: `reject` it (the server's 409), `queue` it to start when the running
 * one ends, or `steer` the running turn with its text.
 */
export type TurnDelivery = "reject" | "queue" | "steer";

export const TURN_DELIVERIES: readonly TurnDelivery[] = ["reject", "queue", "steer"];

/** Canonical modes: `ask` asks before commands and edits, `edits` edits without asking, `plan` changes nothing, `full` asks nothing. */
export type CanonicalMode = "ask" | "edits" | "plan" | "full";

export const CANONICAL_MODES: readonly CanonicalMode[] = ["ask", "edits", "plan", "full"];

/** `configure()`'s settings; each one left out stays as it is. `mode` is canonical or a native mode id. */
export interface SessionSettings {
  model?: string;
  mode?: string;
  /** Reasoning effort: `minimal | low | medium | high` (Codex's scale; Claude maps it to thinking tokens). */
  effort?: string;
}

export const EFFORT_LEVELS = ["minimal", "low", "medium", "high"] as const;

/** An MCP server for the agent: a stdio program, or a streamable HTTP endpoint. */
export type McpServerSpec =
  | { name: string; command: string; args?: string[]; env?: Record<string, string> }
  | { name: string; url: string; headers?: Record<string, string> };

export interface ModelInfo {
  id: string;
  name?: string;
  default?: boolean;
}

export interface ModeInfo {
  id: string;
  name: string;
  /** The canonical mode this native mode is, where it is one. */
  canonical?: CanonicalMode;
}

/** What a driver can do; a `false` (or an empty list) is answered by `UnsupportedError` with the reason. */
export interface DriverCapabilities {
  approvals: boolean;
  questions: boolean;
  subagents: boolean;
  plan: boolean;
  attachments: ("image" | "file")[];
  steer: boolean;
  queue: boolean;
  fork: boolean;
  setModel: boolean;
  setMode: boolean;
  effort: boolean;
  mcpServers: boolean;
  resume: boolean;
  /** The models the agent reports, where its protocol does. */
  models?: ModelInfo[];
  /** The modes the agent offers (native ids, with their canonical mode where one fits). */
  modes?: ModeInfo[];
}

/** One agent a host can run: `listAgents()` and `GET /v1/agents`. */
export interface AgentInfo {
  provider: string;
  /** For an ACP agent: the known agent's name (`claude-agent-acp`, `codex-acp`, …). */
  agent?: string;
  installed: boolean;
  version?: string;
  testedVersion: string;
  /** The npm package that is (or would be) run. */
  package?: string;
  capabilities: DriverCapabilities;
}
