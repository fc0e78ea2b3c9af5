import { describe, expect, it } from "vitest";
import {
  jsonWithoutRecursion,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  textPreview,
} from "../../src/kit/json-depth.js";
import { deepObject, deepObjectText } from "./support/deep-records.js";

describe("nestsDeeperThan", () => {
  it("counts containers, not scalars, and finds the deep branch among shallow ones", () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan("x", 0)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan([], 1)).toBe(false);
    expect(nestsDeeperThan([[1, 2], { a: "b" }], 2)).toBe(false);
    expect(nestsDeeperThan([[1, 2], { a: [] }], 2)).toBe(true);
    expect(nestsDeeperThan({ x: 1, y: [{}, { z: deepObject(5) }] }, 8)).toBe(false);
    expect(nestsDeeperThan({ x: 1, y: [{}, { z: deepObject(6) }] }, 8)).toBe(true);
  });

  it("walks 100,000 levels without the stack", () => {
    expect(nestsDeeperThan(deepObject(100_000), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`), 99_999)).toBe(true);
    expect(nestsDeeperThan(deepObject(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(deepObject(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });
});

describe("jsonWithoutRecursion", () => {
  it("writes what JSON.stringify writes", () => {
    const values: unknown[] = [
      null,
      0,
      -0,
      1.5e300,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      true,
      'a "q"\n\u2028 \ud800 é',
      [],
      {},
      [1, undefined, () => 1, Symbol("s"), null],
      { a: undefined, b: () => 1, c: [{}, []], 'k"ey': { d: "e" } },
      { when: new Date(0), nested: { toJSON: (key: string) => ({ key }) } },
      { toJSON: () => undefined },
      [{ toJSON: () => undefined }],
      { __proto__: null, x: 1 },
      JSON.parse('{"__proto__":{"x":1},"y":[1,2,{"z":null}]}'),
    ];
    for (const value of values) expect(jsonWithoutRecursion(value)).toBe(JSON.stringify(value));
    expect(jsonWithoutRecursion(undefined)).toBeUndefined();
  });

  it("writes 100,000 levels that JSON.stringify cannot, and stops early when cut", () => {
    const depth = 100_000;
    expect(() => JSON.stringify(deepObject(depth))).toThrow(RangeError);
    expect(jsonWithoutRecursion(deepObject(depth))).toBe(deepObjectText(depth));
    expect(jsonWithoutRecursion(deepObject(depth), 100)).toBe(deepObjectText(depth).slice(0, 100));
    const big = { text: "x".repeat(1_000_000), more: [1, 2, 3] };
    expect(jsonWithoutRecursion(big, 10)).toBe('{"text":"x');
  });

  it("refuses a cycle and a BigInt as JSON.stringify does, but not a value met twice", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = { back: cycle };
    expect(() => jsonWithoutRecursion(cycle)).toThrow(TypeError);
    expect(() => jsonWithoutRecursion({ n: 1n })).toThrow(TypeError);
    const shared = { s: 1 };
    expect(jsonWithoutRecursion([shared, { again: shared }])).toBe('[{"s":1},{"again":{"s":1}}]');
  });
});

describe("textPreview", () => {
  it("cuts at the limit, never between the halves of a surrogate pair", () => {
    expect(textPreview("abc", 5)).toBe("abc");
    expect(textPreview("abcdef", 4)).toBe("abcd");
    expect(textPreview("abc😀def", 4)).toBe("abc");
    expect(textPreview("abc😀def", 5)).toBe("abc😀");
  });
});
