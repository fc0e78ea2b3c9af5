import * as z from "zod";
import type { SessionSettings, TurnAttachment as TurnAttachment_, TurnInput } from "../contracts/driver.js";

/**
 * The bodies of the command surface's routes (DESIGN.md §9, §11): attachments and delivery on a turn, MCP servers,
 * mode and effort at creation, `PATCH /v1/sessions/:id` settings, the agent catalog and the 422 body. Spread into
 * src/api/schemas.ts's bodies where a route already has one.
 */

/** Base64 of at most 10 MiB (the per-attachment limit; the driver checks the decoded size exactly). */
const MAX_BASE64_CHARS = Math.ceil((10 * 1024 * 1024) / 3) * 4;

const InlineImage = z
  .object({
    type: z.literal("image"),
    mediaType: z
      .enum(["image/png", "image/jpeg", "image/gif", "image/webp"])
      .describe("The image's media type."),
    data: z
      .string()
      .min(1)
      .max(MAX_BASE64_CHARS, "larger than 10 MiB")
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, "not base64")
      .describe("The image, base64 (at most 10 MiB decoded)."),
    name: z.string().min(1).max(255).optional(),
  })
  .strict();

const PathAttachment = z
  .object({
    type: z.enum(["image", "file"]),
    path: z
      .string()
      .min(1)
      .max(4096)
      .describe(
        "A file on the server's machine: absolute, or relative to the session's cwd (at most 10 MiB).",
      ),
    mediaType: z
      .string()
      .regex(/^[a-z]+\/[a-z0-9.+-]+$/i, "not a media type")
      .optional(),
    name: z.string().min(1).max(255).optional(),
  })
  .strict();

export const TurnAttachment = z
  .union([InlineImage, PathAttachment])
  .describe("An image (inline base64 or a path) or a file (a path), given to the agent as its native input.");

export const TurnDelivery = z
  .enum(["reject", "queue", "steer"])
  .describe(
    "While a turn runs: `reject` (default) answers 409, `queue` starts this turn when the running one ends, " +
      "`steer` adds the text to the running turn (422 where the agent cannot be steered).",
  );

/** At most this many attachments per turn; the turns route's body limit is raised for them. */
export const MAX_TURN_ATTACHMENTS = 4;

/** The fields a turn body gains (spread into `TurnBody`). */
export const TURN_CONTROL_FIELDS = {
  attachments: z.array(TurnAttachment).max(MAX_TURN_ATTACHMENTS).optional(),
  delivery: TurnDelivery.optional(),
};

const NAME = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, _ and - only (1–64)")
  .describe("The server's name: its tools are `mcp_tool_call` items with this `details.server`.");

export const McpServer = z
  .union([
    z
      .object({
        name: NAME,
        command: z.string().min(1),
        args: z.array(z.string()).optional(),
        env: z.record(z.string(), z.string()).optional(),
      })
      .strict(),
    z
      .object({
        name: NAME,
        url: z.string().url(),
        headers: z.record(z.string(), z.string()).optional(),
      })
      .strict(),
  ])
  .describe("An MCP server given to the agent natively: a stdio program or a streamable HTTP endpoint.");

const Mode = z
  .string()
  .min(1)
  .max(100)
  .describe("`ask | edits | plan | full` or a native mode id from the agent's `capabilities.modes`.");
const Effort = z.enum(["minimal", "low", "medium", "high"]).describe("Reasoning effort.");

/** The fields `POST /v1/sessions` gains (spread into `CreateSessionBody`). */
export const CREATE_CONTROL_FIELDS = {
  mode: Mode.optional(),
  effort: Effort.optional(),
  mcpServers: z.array(McpServer).max(32).optional(),
};

/** `PATCH /v1/sessions/:id`'s settings: the model, mode and effort of the turns that follow. */
export const SESSION_SETTINGS_FIELDS = {
  model: z.string().min(1).max(200).optional().describe("A model the agent offers (`capabilities.models`)."),
  mode: Mode.optional(),
  effort: Effort.optional(),
};

export const SessionSettingsBody = z.object(SESSION_SETTINGS_FIELDS).strict();
export type SessionSettingsBody = z.infer<typeof SessionSettingsBody>;

export const UnsupportedBody = z.object({
  error: z.literal("unsupported"),
  reason: z.string().describe("Why the agent cannot do it, naming the provider."),
});

const Capabilities = z.object({
  approvals: z.boolean(),
  questions: z.boolean(),
  subagents: z.boolean(),
  plan: z.boolean(),
  attachments: z.array(z.enum(["image", "file"])),
  steer: z.boolean(),
  queue: z.boolean(),
  fork: z.boolean(),
  setModel: z.boolean(),
  setMode: z.boolean(),
  effort: z.boolean(),
  mcpServers: z.boolean(),
  resume: z.boolean(),
  models: z
    .array(z.object({ id: z.string(), name: z.string().optional(), default: z.boolean().optional() }))
    .optional(),
  modes: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        canonical: z.enum(["ask", "edits", "plan", "full"]).optional(),
      }),
    )
    .optional(),
});

export const AgentInfo = z.object({
  provider: z.string(),
  agent: z.string().optional().describe("A known ACP agent's name."),
  installed: z.boolean(),
  version: z.string().optional(),
  testedVersion: z.string(),
  package: z.string().optional(),
  capabilities: Capabilities,
});

export const AgentList = z.object({ agents: z.array(AgentInfo) });

export const AgentsQuery = z.object({
  probe: z
    .enum(["0", "1"])
    .optional()
    .describe("1: start each installed agent briefly to read the models and modes it reports."),
});

/** A validated turn body as the drivers' `TurnInput` (zod's optional fields may hold `undefined`). */
export function turnInputOf(body: {
  text: string;
  attachments?: readonly z.infer<typeof TurnAttachment>[] | undefined;
  delivery?: z.infer<typeof TurnDelivery> | undefined;
}): TurnInput {
  const input: TurnInput = { text: body.text };
  if (body.attachments !== undefined && body.attachments.length > 0)
    input.attachments = body.attachments.map((attachment) => {
      const { name, ...rest } = attachment;
      const base = { ...rest } as TurnAttachment_;
      if ("mediaType" in base && base.mediaType === undefined) delete base.mediaType;
      return name === undefined ? base : { ...base, name };
    });
  if (body.delivery !== undefined) input.delivery = body.delivery;
  return input;
}

/** Validated settings as the drivers' `SessionSettings`. */
export function sessionSettingsOf(body: SessionSettingsBody): SessionSettings {
  const settings: SessionSettings = {};
  if (body.model !== undefined) settings.model = body.model;
  if (body.mode !== undefined) settings.mode = body.mode;
  if (body.effort !== undefined) settings.effort = body.effort;
  return settings;
}
