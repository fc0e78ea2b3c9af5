import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRuntimeEventType } from "../../../src/contracts/events.js";
import {
  codexEventMsgDefinition,
  codexRolloutDefinition,
} from "../../../src/providers/codex-eventmsg/definition.js";
import { EVENTMSG_TABLE } from "../../../src/providers/codex-eventmsg/eventmsg-table.js";
import {
  EVENTMSG_TYPES_0_114,
  EVENTMSG_TYPES_SINCE_0_114,
} from "../../../src/providers/codex-eventmsg/eventmsg-types.js";
import {
  RESPONSE_ITEM_TYPES,
  ROLLOUT_LINE_TABLE,
} from "../../../src/providers/codex-eventmsg/rollout-lines.js";
import { EVENTMSG_FIXTURES, fixtureNames, ROLLOUT_FIXTURES, readLines } from "./replay.js";

// The 0.114.0 package (the last with `codex/event/*`) cannot be installed beside the pinned 0.171.0, and 0.171.0's
// generated schema has no EventMsg: the surface is the checked-in list in eventmsg-types.ts. The rollout surface is
// checked against what the pinned codex really wrote (the recorded fixtures).
describe("codex-eventmsg coverage", () => {
  it("lists all 80 EventMsg types of 0.114.0, each handled with typed yields", () => {
    expect(EVENTMSG_TYPES_0_114).toHaveLength(80);
    expect(new Set(EVENTMSG_TYPES_0_114).size).toBe(80);
    const coverage = codexEventMsgDefinition.coverage();
    expect(coverage.unhandled).toEqual([]);
    const kinds = coverage.kinds.map((row) => row.kind);
    for (const kind of [...EVENTMSG_TYPES_0_114, ...EVENTMSG_TYPES_SINCE_0_114])
      expect(kinds).toContain(kind);
    for (const row of coverage.kinds) {
      expect(row.yields.length, row.kind).toBeGreaterThan(0);
      for (const type of row.yields) expect(isRuntimeEventType(type), `${row.kind}: ${type}`).toBe(true);
    }
  });

  it("the table has no row outside the surface", () => {
    const surface = new Set<string>([...EVENTMSG_TYPES_0_114, ...EVENTMSG_TYPES_SINCE_0_114]);
    for (const kind of Object.keys(EVENTMSG_TABLE)) expect(surface.has(kind), kind).toBe(true);
  });

  it("provider.event only where no canonical family fits", () => {
    const onlyProviderEvent = codexEventMsgDefinition
      .coverage()
      .kinds.filter((row) => row.yields.length === 1 && row.yields[0] === "provider.event")
      .map((row) => row.kind)
      .sort();
    expect(onlyProviderEvent).toEqual([
      "background_event",
      "get_history_entry_response",
      "list_custom_prompts_response",
      "list_remote_skills_response",
      "list_skills_response",
      "mcp_list_tools_response",
      "raw_response_item",
      "remote_skill_downloaded",
      "skills_update_available",
    ]);
  });

  it("every EventMsg type in the fixtures is in the table", () => {
    const seen = new Set<string>();
    for (const name of fixtureNames(EVENTMSG_FIXTURES)) {
      for (const line of readLines(join(EVENTMSG_FIXTURES, `${name}.jsonl`))) {
        seen.add(JSON.parse(line).msg.params.msg.type);
      }
    }
    for (const name of fixtureNames(ROLLOUT_FIXTURES)) {
      for (const line of readLines(join(ROLLOUT_FIXTURES, `${name}.jsonl`))) {
        const record = JSON.parse(line);
        if (record.type === "event_msg") seen.add(record.payload.type);
      }
    }
    const missing = [...seen].filter(
      (type) => !Object.hasOwn(EVENTMSG_TABLE, type) && type !== "some_future_event",
    );
    expect(missing).toEqual([]);
  });
});

describe("codex-rollout coverage", () => {
  it("every line type and response_item type the pinned codex wrote is handled", () => {
    const lineTypes = new Set<string>();
    const itemTypes = new Set<string>();
    for (const name of fixtureNames(ROLLOUT_FIXTURES).filter((n) => !n.startsWith("hand-written"))) {
      for (const line of readLines(join(ROLLOUT_FIXTURES, `${name}.jsonl`))) {
        const record = JSON.parse(line);
        lineTypes.add(record.type);
        if (record.type === "response_item") itemTypes.add(record.payload.type);
      }
    }
    for (const type of lineTypes) expect(Object.hasOwn(ROLLOUT_LINE_TABLE, type), type).toBe(true);
    for (const type of itemTypes)
      expect((RESPONSE_ITEM_TYPES as readonly string[]).includes(type), type).toBe(true);
  });

  it("coverage lists lines, response items and the EventMsg table, none unhandled", () => {
    const coverage = codexRolloutDefinition.coverage();
    expect(coverage.version).toBe("0.171.0");
    expect(coverage.unhandled).toEqual([]);
    const groups = new Set(coverage.kinds.map((row) => row.group));
    expect([...groups].sort()).toEqual(["event_msg", "line", "response_item"]);
    expect(coverage.kinds.filter((row) => row.group === "event_msg")).toHaveLength(81);
  });
});
