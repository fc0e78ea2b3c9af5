import type { MapperDefinition, MapperOptions } from "../../kit/mapper.js";
import { acpCoverage } from "./coverage.js";
import { AcpMapper } from "./mapper.js";
import { type AcpProfile, CURSOR_PROFILE, GENERIC_PROFILE } from "./profile.js";

function definitionOf(profile: AcpProfile): MapperDefinition {
  return {
    source: profile.source,
    provider: profile.provider,
    create: (options: MapperOptions) => new AcpMapper(profile, options),
    coverage: () => acpCoverage(profile),
  };
}

/** Any ACP agent: `acp.*` raw tags, provider `acp`. */
export const acpDefinition: MapperDefinition = definitionOf(GENERIC_PROFILE);

/** Cursor's `agent acp`: `cursor.acp.*` raw tags, provider `cursor`, `cursor/*` extension methods. */
export const cursorAcpDefinition: MapperDefinition = definitionOf(CURSOR_PROFILE);

export { AcpMapper } from "./mapper.js";
export { type AcpProfile, CURSOR_PROFILE, GENERIC_PROFILE } from "./profile.js";
