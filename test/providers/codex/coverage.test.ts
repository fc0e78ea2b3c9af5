import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRuntimeEventType } from "../../../src/contracts/events.js";
import { codexBinaryPath } from "../../../src/mock-model/agent-env.js";
import { CODEX_ITEM_TYPES } from "../../../src/providers/codex/app-server-items.js";
import { CODEX_NOTIFICATIONS } from "../../../src/providers/codex/app-server-notifications.js";
import { CODEX_SERVER_REQUESTS } from "../../../src/providers/codex/app-server-requests.js";
import {
  CODEX_VERSION,
  codexAppServerCoverage,
  codexAppServerDefinition,
} from "../../../src/providers/codex/definition.js";

type Schema = { oneOf?: Schema[]; anyOf?: Schema[]; properties?: Record<string, Schema>; enum?: unknown[] };

/** The `method` (or `type`) constants of a generated union schema. */
function unionConstants(schema: Schema, field: string): string[] {
  const variants = schema.oneOf ?? schema.anyOf ?? [];
  return variants.flatMap((v) =>
    (v.properties?.[field]?.enum ?? []).filter((x) => typeof x === "string"),
  ) as string[];
}

/** The surface of the INSTALLED codex, generated fresh (`codex app-server generate-json-schema`). */
function generate(dir: string, experimental: boolean) {
  const args = [codexBinaryPath(), "app-server", "generate-json-schema", "--out", dir];
  if (experimental) args.push("--experimental");
  execFileSync(process.execPath, args, { stdio: "ignore", timeout: 60_000 });
  const read = (name: string) =>
    JSON.parse(readFileSync(join(dir, name), "utf8")) as Schema & {
      definitions: Record<string, Schema>;
    };
  const notifications = read("ServerNotification.json");
  const threadItem = notifications.definitions.ThreadItem ?? {};
  return {
    notifications: unionConstants(notifications, "method"),
    requests: unionConstants(read("ServerRequest.json"), "method"),
    itemTypes: unionConstants(threadItem, "type"),
  };
}

describe("codex-app-server coverage against the installed @openai/codex", () => {
  const dirs: string[] = [];
  let stable: ReturnType<typeof generate>;
  let experimental: ReturnType<typeof generate>;

  beforeAll(() => {
    dirs.push(mkdtempSync(join(tmpdir(), "codex-schema-")), mkdtempSync(join(tmpdir(), "codex-schema-x-")));
    stable = generate(dirs[0] as string, false);
    experimental = generate(dirs[1] as string, true);
  }, 120_000);
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("is the pinned version", () => {
    const require = createRequire(import.meta.url);
    expect((require("@openai/codex/package.json") as { version: string }).version).toBe(CODEX_VERSION);
  });

  it("handles every ServerNotification method (stable and experimental)", () => {
    expect(stable.notifications.length).toBeGreaterThanOrEqual(87);
    const missing = [...new Set([...stable.notifications, ...experimental.notifications])].filter(
      (m) => CODEX_NOTIFICATIONS[m] === undefined,
    );
    expect(missing).toEqual([]);
  });

  it("handles every ServerRequest method, none typed unknown", () => {
    expect(stable.requests.length).toBeGreaterThanOrEqual(10);
    const all = [...new Set([...stable.requests, ...experimental.requests])];
    expect(all.filter((m) => CODEX_SERVER_REQUESTS[m] === undefined)).toEqual([]);
    for (const spec of Object.values(CODEX_SERVER_REQUESTS)) expect(spec.requestType).not.toBe("unknown");
  });

  it("maps every v2 ThreadItem type to a canonical item type other than unknown", () => {
    expect(stable.itemTypes.length).toBeGreaterThanOrEqual(19);
    for (const type of stable.itemTypes) {
      expect(CODEX_ITEM_TYPES[type], type).toBeDefined();
      expect(CODEX_ITEM_TYPES[type]).not.toBe("unknown");
    }
  });

  it("lists every handled kind with real canonical types and nothing unhandled", () => {
    const coverage = codexAppServerCoverage();
    expect(codexAppServerDefinition.coverage()).toEqual(coverage);
    expect(coverage.unhandled).toEqual([]);
    const rows = (group: string) => coverage.kinds.filter((k) => k.group === group).map((k) => k.kind);
    expect(rows("notification").sort()).toEqual([...stable.notifications].sort());
    expect(rows("request").sort()).toEqual([...stable.requests].sort());
    for (const row of coverage.kinds) {
      expect(row.yields.length).toBeGreaterThan(0);
      for (const type of row.yields) expect(isRuntimeEventType(type), `${row.kind} → ${type}`).toBe(true);
    }
  });

  it("prefers typed families: provider.event only where no canonical family fits", () => {
    const providerOnly = codexAppServerCoverage().kinds.filter(
      (k) => k.yields.length === 1 && k.yields[0] === "provider.event",
    );
    expect(providerOnly.length).toBeLessThan(25);
  });
});
