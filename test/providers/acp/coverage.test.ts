import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import { AGENT_RESPONSE_HANDLERS } from "../../../src/providers/acp/agent-responses.js";
import { CLIENT_METHOD_HANDLERS } from "../../../src/providers/acp/client-methods.js";
import { ACP_SDK_VERSION } from "../../../src/providers/acp/coverage.js";
import { acpDefinition, cursorAcpDefinition } from "../../../src/providers/acp/definition.js";
import { SESSION_UPDATE_HANDLERS } from "../../../src/providers/acp/session-updates.js";

/** The surface as the installed SDK declares it: `x-side` / `x-method` of its JSON Schema, SessionUpdate kinds. */
interface AcpSurface {
  agentMethods: string[];
  clientMethods: string[];
  protocolMethods: string[];
  updateKinds: string[];
}

const require = createRequire(import.meta.url);

function surfaceOf(file: "schema.json" | "schema.unstable.json"): AcpSurface {
  const schema = JSON.parse(
    readFileSync(require.resolve(`@agentclientprotocol/sdk/schema/v1/${file}`), "utf8"),
  ) as {
    $defs: Record<
      string,
      {
        "x-side"?: string;
        "x-method"?: string;
        oneOf?: { properties: { sessionUpdate: { const: string } } }[];
      }
    >;
  };
  const bySide = (side: string) => [
    ...new Set(
      Object.values(schema.$defs)
        .filter((def) => def["x-side"] === side)
        .map((def) => def["x-method"] as string),
    ),
  ];
  const updates = schema.$defs.SessionUpdate?.oneOf ?? [];
  return {
    agentMethods: bySide("agent"),
    clientMethods: bySide("client"),
    protocolMethods: bySide("protocol"),
    updateKinds: updates.map((variant) => variant.properties.sessionUpdate.const),
  };
}

describe("coverage against the installed @agentclientprotocol/sdk", () => {
  const stable = surfaceOf("schema.json");
  const unstable = surfaceOf("schema.unstable.json");

  it("pins the version the coverage names", () => {
    const schemaPath = require.resolve("@agentclientprotocol/sdk/schema/v1/schema.json");
    const manifest = JSON.parse(readFileSync(join(dirname(schemaPath), "..", "..", "package.json"), "utf8"));
    expect(manifest.version).toBe(ACP_SDK_VERSION);
  });

  it("v1 has 13 agent methods, 11 client methods, 14 session/update kinds", () => {
    expect(stable.agentMethods).toHaveLength(13);
    expect(stable.clientMethods).toHaveLength(11);
    expect(stable.updateKinds).toHaveLength(14);
  });

  it.each([
    ["stable", stable],
    ["unstable", unstable],
  ] as const)("every %s method and update kind has a handler", (_, surface) => {
    const missing = [
      ...surface.agentMethods.filter((method) => !(method in AGENT_RESPONSE_HANDLERS)),
      ...[...surface.clientMethods, ...surface.protocolMethods].filter(
        (method) => !(method in CLIENT_METHOD_HANDLERS),
      ),
      ...surface.updateKinds.filter((kind) => !(kind in SESSION_UPDATE_HANDLERS)),
    ].filter((method) => !method.startsWith("proxy/"));
    expect(missing).toEqual([]);
  });

  it.each([acpDefinition, cursorAcpDefinition])(
    "coverage rows list every stable kind with yields ($source)",
    (definition) => {
      const coverage = definition.coverage();
      expect(coverage.unhandled).toEqual([]);
      const handled = new Set(coverage.kinds.filter((row) => row.yields.length > 0).map((row) => row.kind));
      for (const kind of [...stable.agentMethods, ...stable.clientMethods, ...stable.updateKinds]) {
        expect(handled.has(kind), kind).toBe(true);
      }
    },
  );

  it("the cursor profile lists the cursor/* extension methods", () => {
    const kinds = cursorAcpDefinition
      .coverage()
      .kinds.filter((row) => row.group === "extension")
      .map((row) => row.kind);
    expect(kinds).toContain("cursor/ask_question");
    expect(acpDefinition.coverage().kinds.some((row) => row.group === "extension")).toBe(false);
  });

  it("a minimal record of every update kind maps to schema-valid events, none of them a warning", () => {
    const mapper = acpDefinition.create({ sessionId: "kinds" });
    const samples: Record<string, Record<string, unknown>> = {
      user_message_chunk: { content: { type: "text", text: "hi" } },
      agent_message_chunk: { content: { type: "text", text: "a" } },
      agent_thought_chunk: { content: { type: "text", text: "t" } },
      tool_call: { toolCallId: "c1", title: "x", kind: "read" },
      tool_call_update: { toolCallId: "c1", status: "completed", content: [] },
      plan: { entries: [{ content: "s", priority: "high", status: "pending" }] },
      available_commands_update: { availableCommands: [] },
      current_mode_update: { currentModeId: "plan" },
      config_option_update: { configOptions: [] },
      session_info_update: { title: "T" },
      usage_update: { used: 1, size: 10 },
      notice: { severity: "info", title: "n" },
      compaction_update: { compactionId: "k", status: "completed" },
      compaction_summary_chunk: { compactionId: "k2", content: { type: "text", text: "sum" } },
      plan_update: { plan: { items: [] } },
      plan_removed: { planId: "p" },
      subagent_update: { sessionId: "sub", state: "running" },
      session_message: { messageId: "m" },
      session_message_chunk: { messageId: "m", content: { type: "text", text: "x" } },
    };
    for (const kind of unstable.updateKinds) {
      const msg = {
        jsonrpc: "2.0",
        method: "session/update",
        params: { sessionId: "s", update: { sessionUpdate: kind, ...samples[kind] } },
      };
      const events = mapper.map({ kind: "message", dir: "in", msg });
      expect(events.length, kind).toBeGreaterThan(0);
      for (const event of events) {
        RuntimeEventSchema.parse(event);
        expect(event.type, kind).not.toBe("runtime.warning");
      }
    }
  });
});
