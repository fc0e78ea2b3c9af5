import type { MapperDefinition, SourceName } from "../kit/mapper.js";
import { codexSdkDefinition } from "../providers/codex-sdk/definition.js";

/** Every source `normalize --from` accepts, with its mapper. */
export const MAPPER_DEFINITIONS: readonly MapperDefinition[] = [codexSdkDefinition];

export function findMapperDefinition(source: string): MapperDefinition | undefined {
  return MAPPER_DEFINITIONS.find((definition) => definition.source === source);
}

export function registeredSources(): SourceName[] {
  return MAPPER_DEFINITIONS.map((definition) => definition.source);
}
