import type { MapperDefinition, SourceName } from "../kit/mapper.js";
import { acpDefinition, cursorAcpDefinition } from "../providers/acp/definition.js";
import { claudeSdkDefinition } from "../providers/claude/definition.js";
import { claudeCodeDefinition } from "../providers/claude-code/definition.js";
import { codexAppServerDefinition } from "../providers/codex/definition.js";
import { codexEventMsgDefinition, codexRolloutDefinition } from "../providers/codex-eventmsg/definition.js";
import { codexSdkDefinition } from "../providers/codex-sdk/definition.js";

/** Every source `normalize --from` accepts, with its mapper. */
export const MAPPER_DEFINITIONS: readonly MapperDefinition[] = [
  codexAppServerDefinition,
  codexEventMsgDefinition,
  codexRolloutDefinition,
  codexSdkDefinition,
  claudeSdkDefinition,
  claudeCodeDefinition,
  acpDefinition,
  cursorAcpDefinition,
];

export function findMapperDefinition(source: string): MapperDefinition | undefined {
  return MAPPER_DEFINITIONS.find((definition) => definition.source === source);
}

export function registeredSources(): SourceName[] {
  return MAPPER_DEFINITIONS.map((definition) => definition.source);
}
