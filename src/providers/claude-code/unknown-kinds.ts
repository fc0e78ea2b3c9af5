import type { RuntimeEvent } from "../../contracts/events.js";
import { unknownKindWarning } from "../../kit/warnings.js";
import { emit } from "../claude/context.js";
import type { SessionFileContext } from "./context.js";

/** A kind no version writes: one `runtime.warning` per kind, later records of it `provider.event`s. */
export function unknownKindOnce(ctx: SessionFileContext, kind: string): RuntimeEvent[] {
  if (ctx.state.warnedKinds.has(kind))
    return [emit(ctx, "provider.event", { name: kind, summary: "unknown kind (warned once)" })];
  ctx.state.warnedKinds.set(kind, true);
  return [
    unknownKindWarning(ctx.builder, "Claude Code session record", kind, ctx.raw, {
      threadId: ctx.state.threadId,
      turnId: ctx.state.turnId,
    }),
  ];
}
