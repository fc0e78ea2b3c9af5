import * as z from "zod";
import { SessionSettingsBody } from "../api/control-schemas.js";
import { RespondBody, TurnBody } from "../api/schemas.js";
import { ForkBody, SessionAdminPatch } from "../api/session-admin-schemas.js";

/**
 * What travels between the nodes of a cluster by NATS request/reply (DESIGN.md §10): a command for a session,
 * sent to the node that runs its agent, and that node's answer. Pure zod: a node checks every message it gets.
 */

const SessionId = z.string().min(1).max(200);

export const ClusterCommand = z.discriminatedUnion("op", [
  z.object({ op: z.literal("turn"), sessionId: SessionId, input: TurnBody }).strict(),
  z
    .object({
      op: z.literal("respond"),
      sessionId: SessionId,
      requestId: z.string().min(1),
      response: RespondBody,
    })
    .strict(),
  z.object({ op: z.literal("interrupt"), sessionId: SessionId }).strict(),
  z.object({ op: z.literal("stop"), sessionId: SessionId }).strict(),
  /** A node dropped something forged about this session: the owner stores a warning in its stream. */
  z
    .object({
      op: z.literal("forged"),
      sessionId: SessionId,
      kind: z.enum(["event", "command"]),
      at: z.number().int().nonnegative(),
      node: z.string().max(100),
    })
    .strict(),
  z.object({ op: z.literal("configure"), sessionId: SessionId, settings: SessionSettingsBody }).strict(),
  z.object({ op: z.literal("fork"), sessionId: SessionId, body: ForkBody }).strict(),
  z.object({ op: z.literal("update"), sessionId: SessionId, patch: SessionAdminPatch.strict() }).strict(),
  z.object({ op: z.literal("purge"), sessionId: SessionId }).strict(),
]);
export type ClusterCommand = z.infer<typeof ClusterCommand>;

/** `moved`: the node no longer runs the session (its lease was taken); the sender looks up the owner again. */
export const ClusterErrorKind = z.enum([
  "invalid",
  "forbidden",
  "not_found",
  "conflict",
  "unsupported",
  "unavailable",
  "moved",
]);
export type ClusterErrorKind = z.infer<typeof ClusterErrorKind>;

export const ClusterReply = z.union([
  z.object({ ok: z.literal(true), record: z.record(z.string(), z.unknown()).optional() }),
  z.object({
    ok: z.literal(false),
    kind: ClusterErrorKind,
    message: z.string(),
    field: z.string().optional(),
  }),
]);
export type ClusterReply = z.infer<typeof ClusterReply>;

/** The subject a node takes its commands on. */
export function commandSubject(prefix: string, node: string): string {
  return `${prefix}.nodes.${node}.commands`;
}

const NODE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function isNodeId(text: string): boolean {
  return NODE_ID.test(text);
}
