import { describe, expect, it } from "vitest";
import * as z from "zod";
import * as enums from "../../src/contracts/enums.js";
import { RUNTIME_EVENT_TYPES } from "../../src/contracts/event-types.js";
import { runtimeEventJsonSchema } from "../../src/contracts/json-schema.js";

type Node = Record<string, unknown>;

const nodes = (value: unknown): Node[] => (Array.isArray(value) ? (value as Node[]) : []);
const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null;
const propsOf = (node: Node) => (isNode(node.properties) ? (node.properties as Record<string, Node>) : {});

/**
 * Walks the published JSON Schema: every event variant, every property of it (envelope, `type`, `payload`) and,
 * recursively, every property of nested objects, of objects in arrays and of union members (the item payload's
 * variants and their `details`) must carry a description. Object array items and object union members count as
 * nodes of their own. Returns the paths without one and every path visited.
 */
function walkDescriptions(root: Node): { missing: string[]; visited: string[] } {
  const missing: string[] = [];
  const visited: string[] = [];
  const defs = isNode(root.$defs) ? (root.$defs as Record<string, Node>) : {};
  const need = (node: Node, path: string) => {
    visited.push(path);
    if (typeof node.description !== "string" || node.description.trim() === "") missing.push(path);
  };
  const resolve = (node: Node, path: string): Node => {
    if (typeof node.$ref !== "string") return node;
    const target = defs[node.$ref.replace("#/$defs/", "")];
    if (target === undefined) missing.push(`${path} (unresolved ${node.$ref})`);
    return target ?? {};
  };
  const walk = (raw: Node, path: string, depth: number): void => {
    if (depth > 20) return;
    const node = resolve(raw, path);
    for (const [name, child] of Object.entries(propsOf(node))) {
      need(child, `${path}.${name}`);
      walk(child, `${path}.${name}`, depth + 1);
    }
    if (isNode(node.items)) {
      const items = resolve(node.items, `${path}[]`);
      if (items.properties !== undefined) need(items, `${path}[]`);
      walk(items, `${path}[]`, depth + 1);
    }
    if (isNode(node.additionalProperties)) walk(node.additionalProperties, `${path}{}`, depth + 1);
    [...nodes(node.anyOf), ...nodes(node.oneOf)].forEach((member, index) => {
      const tag = Object.values(propsOf(member)).find((p) => "const" in p)?.const ?? index;
      const memberPath = `${path}<${String(tag)}>`;
      if (resolve(member, memberPath).properties !== undefined) need(member, memberPath);
      walk(member, memberPath, depth + 1);
    });
  };
  const variants = nodes(root.oneOf);
  if (variants.length === 0) missing.push("(no event variants)");
  for (const variant of variants) {
    const type = String(propsOf(variant).type?.const);
    need(variant, type);
    walk(variant, type, 0);
  }
  return { missing, visited };
}

describe("descriptions where hosts look", () => {
  const schema = runtimeEventJsonSchema();

  it("every event variant, envelope field and payload field of the JSON Schema has a description", () => {
    expect(walkDescriptions(schema).missing).toEqual([]);
  });

  it("the walk reaches every variant, the envelope's nested fields, arrays, and item details", () => {
    const { visited } = walkDescriptions(schema);
    for (const type of RUNTIME_EVENT_TYPES) expect(visited).toContain(type);
    for (const path of [
      "turn.completed.raw.source",
      "turn.completed.providerRefs.providerRequestId",
      "item.started.itemId",
      "files.persisted.payload.files[]",
      "files.persisted.payload.files[].fileId",
      "turn.plan.updated.payload.plan[].status",
      "thread.token-usage.updated.payload.usage.last.cachedInputTokens",
      "item.completed.payload<command_execution>",
      "item.completed.payload<command_execution>.details.exitCode",
      "item.updated.payload<file_change>.details.changes[].kind",
      "item.started.payload<unknown>.data",
    ]) {
      expect(visited).toContain(path);
    }
  });

  it("fails on a schema with a description taken away (envelope, payload, array item, item details, variant)", () => {
    const broken = structuredClone(schema) as Node;
    const variant = (type: string) =>
      nodes(broken.oneOf).find((v) => propsOf(v).type?.const === type) ?? ({} as Node);
    const at = (node: Node, ...path: string[]) =>
      path.reduce<Node>((current, key) => propsOf(current)[key] ?? ({} as Node), node);
    const item = (itemType: string) =>
      nodes(at(variant("item.completed"), "payload").oneOf).find(
        (v) => at(v, "itemType").const === itemType,
      ) ?? ({} as Node);
    delete at(variant("session.started"), "createdAt").description;
    delete at(variant("turn.completed"), "raw", "method").description;
    delete at(variant("request.opened"), "payload", "options").description;
    delete (at(variant("files.persisted"), "payload", "files").items as Node).description;
    delete at(item("command_execution"), "details", "cwd").description;
    delete variant("hook.started").description;
    expect(walkDescriptions(broken).missing.sort()).toEqual(
      [
        "session.started.createdAt",
        "turn.completed.raw.method",
        "request.opened.payload.options",
        "hook.started",
        "files.persisted.payload.files[]",
        "item.completed.payload<command_execution>.details.cwd",
      ].sort(),
    );
  });

  it("every enum of enums.ts has a description", () => {
    const enumSchemas = Object.entries(enums).filter(([, value]) => value instanceof z.ZodEnum);
    expect(enumSchemas.length).toBeGreaterThanOrEqual(10);
    for (const [name, schema] of enumSchemas) {
      expect((schema as z.ZodEnum).description, name).toMatch(/\S/);
    }
  });
});
