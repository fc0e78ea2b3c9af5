import * as z from "zod";
import { ItemStatus } from "./enums.js";

/**
 * Item details (DESIGN.md §2): what a host needs to render an item, in one shape for every provider. Filled only
 * from what the native record says; a field the provider does not report is absent, never guessed.
 */

export const CommandExecutionDetails = z
  .object({
    command: z
      .string()
      .describe(
        "The command as the agent wrote it, with a provider's shell wrapper (`/bin/bash -lc '…'`) taken off.",
      ),
    shell: z
      .string()
      .optional()
      .describe(
        "The shell wrapper the provider ran the command in (e.g. `/bin/bash -lc`), when it used one.",
      ),
    cwd: z.string().optional().describe("The working directory the command ran in, when the provider says."),
    exitCode: z.number().int().optional().describe("The exit code, where the provider reports one."),
    durationMs: z.number().optional().describe("How long the command ran, in milliseconds, where reported."),
  })
  .describe("A shell command the agent ran. Its output arrives as `command_output` content deltas.");
export type CommandExecutionDetails = z.infer<typeof CommandExecutionDetails>;

export const FileChangeKind = z
  .enum(["add", "update", "delete", "move"])
  .describe("What happened to the file.");
export type FileChangeKind = z.infer<typeof FileChangeKind>;

export const FileChange = z
  .object({
    path: z
      .string()
      .describe(
        "The file's path as the provider gave it (absolute or relative to the cwd, as the provider has it).",
      ),
    kind: FileChangeKind,
    movePath: z.string().optional().describe("For `move`: the path the file moved to."),
    diff: z
      .string()
      .optional()
      .describe("The change as a unified diff, where the provider gives a diff or the old and new text."),
  })
  .describe("One file the change touched.");
export type FileChange = z.infer<typeof FileChange>;

export const FileChangeDetails = z
  .object({
    changes: z.array(FileChange).describe("Every file the change touched, in the provider's order."),
  })
  .describe("An edit of one or more files.");
export type FileChangeDetails = z.infer<typeof FileChangeDetails>;

const toolFields = {
  arguments: z.unknown().optional().describe("The tool's input as the model gave it."),
  result: z.unknown().optional().describe("The tool's result, once it has one."),
  error: z.string().optional().describe("Why the tool call failed, when it did."),
};

export const McpToolCallDetails = z
  .object({
    server: z.string().describe("The MCP server's name."),
    tool: z.string().describe("The tool's name on that server."),
    ...toolFields,
  })
  .describe("A call of a tool on an MCP server.");
export type McpToolCallDetails = z.infer<typeof McpToolCallDetails>;

export const DynamicToolKind = z
  .enum(["read", "search", "fetch", "other"])
  .describe("What the tool does, where the provider says: reads files, searches, fetches a URL, or other.");
export type DynamicToolKind = z.infer<typeof DynamicToolKind>;

export const DynamicToolCallDetails = z
  .object({
    tool: z.string().describe("The tool's name as the provider calls it."),
    ...toolFields,
    kind: DynamicToolKind.optional(),
    paths: z.array(z.string()).optional().describe("The files or directories the tool works on."),
  })
  .describe("A call of any other tool (the provider's own tools, read/search tools, function tools).");
export type DynamicToolCallDetails = z.infer<typeof DynamicToolCallDetails>;

export const WebSearchDetails = z
  .object({
    query: z.string().optional().describe("What was searched for."),
    url: z.string().optional().describe("The page fetched or opened, for a fetch or open action."),
  })
  .describe("A web search or page fetch.");
export type WebSearchDetails = z.infer<typeof WebSearchDetails>;

export const CollabAgentToolCallDetails = z
  .object({
    agentType: z
      .string()
      .optional()
      .describe("The kind of subagent started (e.g. Claude's `subagent_type`)."),
    description: z.string().optional().describe("The short description the model gave the subagent's task."),
    prompt: z.string().optional().describe("The prompt the subagent was given."),
  })
  .describe("A call that starts or talks to a subagent; its activity links here by `parentItemId`.");
export type CollabAgentToolCallDetails = z.infer<typeof CollabAgentToolCallDetails>;

export const TextDetails = z
  .object({
    text: z
      .string()
      .optional()
      .describe("The item's whole text where the native record carries it; streamed text arrives as deltas."),
  })
  .describe("A message, reasoning or plan.");
export type TextDetails = z.infer<typeof TextDetails>;

/** Extension: an image shown or generated. */
export const ImageViewDetails = z
  .object({ path: z.string().optional().describe("The image file's path.") })
  .describe("An image the agent looked at or generated.");
export type ImageViewDetails = z.infer<typeof ImageViewDetails>;

/** Extension: an error the provider reported as an item of the conversation. */
export const ErrorItemDetails = z
  .object({ message: z.string().optional().describe("The error as the provider worded it.") })
  .describe("An error shown in the conversation.");
export type ErrorItemDetails = z.infer<typeof ErrorItemDetails>;

/** The details schema of each item type; item types absent here carry no details. */
export const ItemDetailsByType = {
  user_message: TextDetails,
  assistant_message: TextDetails,
  reasoning: TextDetails,
  plan: TextDetails,
  command_execution: CommandExecutionDetails,
  file_change: FileChangeDetails,
  mcp_tool_call: McpToolCallDetails,
  dynamic_tool_call: DynamicToolCallDetails,
  collab_agent_tool_call: CollabAgentToolCallDetails,
  web_search: WebSearchDetails,
  image_view: ImageViewDetails,
  error: ErrorItemDetails,
} as const;

/** Every item type, with the sentence that describes it (in the JSON Schema too). */
export const ITEM_TYPE_DESCRIPTIONS = {
  user_message: "A message from the user (or a prompt a hook injected).",
  assistant_message: "The assistant's answer text.",
  reasoning: "The model's reasoning or its summary.",
  plan: "A plan the agent wrote.",
  command_execution: "A shell command.",
  file_change: "A change to files.",
  mcp_tool_call: "A tool call on an MCP server.",
  dynamic_tool_call: "A call of any other tool.",
  collab_agent_tool_call: "A subagent call.",
  web_search: "A web search or fetch.",
  image_view: "An image viewed or generated.",
  review_entered: "The agent entered review mode.",
  review_exited: "The agent left review mode.",
  context_compaction: "The conversation was compacted.",
  error: "An error item in the conversation.",
  unknown: "An item of a native type this model has no name for (see `data`).",
} as const;

export type DetailedItemType = keyof typeof ItemDetailsByType;
export type ItemType = keyof typeof ITEM_TYPE_DESCRIPTIONS;

const commonItemFields = {
  status: ItemStatus.optional().describe(
    "inProgress while it runs; completed, failed or declined at the end.",
  ),
  title: z
    .string()
    .optional()
    .describe("A short label a UI can show (a command line, a file, a tool's name)."),
  detail: z.string().optional().describe("A one-line detail a UI can show under the title."),
  data: z.unknown().optional().describe("The native item, for those who want the provider's own shape."),
};

function itemVariant<const T extends ItemType>(itemType: T) {
  const details = (ItemDetailsByType as Partial<Record<ItemType, z.ZodType>>)[itemType];
  const base = {
    itemType: z.literal(itemType).describe(ITEM_TYPE_DESCRIPTIONS[itemType]),
    ...commonItemFields,
  };
  return (
    details === undefined ? z.object(base) : z.object({ ...base, details: details.optional() })
  ).describe(ITEM_TYPE_DESCRIPTIONS[itemType]);
}

export type DetailsField<T extends ItemType> = T extends DetailedItemType
  ? { details?: z.infer<(typeof ItemDetailsByType)[T]> | undefined }
  : { details?: undefined };

/** The payload of `item.started` / `item.updated` / `item.completed` for one item type. */
export type ItemPayloadOf<T extends ItemType> = {
  itemType: T;
  status?: z.infer<typeof ItemStatus> | undefined;
  title?: string | undefined;
  detail?: string | undefined;
  data?: unknown;
} & DetailsField<T>;

export type ItemLifecyclePayload = { [T in ItemType]: ItemPayloadOf<T> }[ItemType];
export type ItemDetails = z.infer<(typeof ItemDetailsByType)[DetailedItemType]>;
export type ItemDetailsOf<T extends ItemType> = T extends DetailedItemType
  ? z.infer<(typeof ItemDetailsByType)[T]>
  : never;

const ITEM_TYPES = Object.keys(ITEM_TYPE_DESCRIPTIONS) as ItemType[];
const [firstVariant, ...otherVariants] = ITEM_TYPES.map(itemVariant) as [
  ReturnType<typeof itemVariant>,
  ...ReturnType<typeof itemVariant>[],
];

/** The item lifecycle payload: a discriminated union on `itemType`, each with its own `details`. */
export const ItemLifecyclePayload = z
  .discriminatedUnion("itemType", [firstVariant, ...otherVariants])
  .describe(
    "An item of a turn: its type, status, labels, typed details and the native item.",
  ) as unknown as z.ZodType<ItemLifecyclePayload>;

/** An item payload's fields but its type, for code that learns the type and the details apart. */
export interface ItemFields {
  status?: z.infer<typeof ItemStatus> | undefined;
  title?: string | undefined;
  detail?: string | undefined;
  details?: ItemDetails | undefined;
  data?: unknown;
}
