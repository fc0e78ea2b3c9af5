import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../", import.meta.url).pathname;
const SRC = join(ROOT, "src");
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|import\("(\.[^"]+)"\)|(?:^|\n)\s*import\s+"(\.[^"]+)"/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The project files each file imports (relative specifiers only), by path relative to the root. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const base = join(dirname(file), (match[1] ?? match[2] ?? match[3]) as string);
      const found = [
        base.replace(/\.js$/, ".ts"),
        base.replace(/\.js$/, ".tsx"),
        `${base}.ts`,
        join(base, "index.ts"),
      ].find((candidate) => known.has(candidate));
      if (found !== undefined) targets.push(found);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** What the published package and the inspector's page start from: its exports, the CLI and the page's imports. */
function entryPoints(files: readonly string[]): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    exports: Record<string, string | { default?: string }>;
  };
  const fromExports = Object.values(pkg.exports)
    .map((target) => (typeof target === "string" ? target : target.default))
    .filter((target): target is string => target?.startsWith("./dist/") === true)
    .map((target) => join(ROOT, target.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")));
  const inspector = sourceFiles(join(ROOT, "inspector", "src"));
  const fromInspector = [...importGraph([...files, ...inspector])]
    .filter(([file]) => inspector.includes(file))
    .flatMap(([, targets]) => targets.filter((target) => target.startsWith(SRC)));
  return [...fromExports, join(SRC, "cli", "main.ts"), ...fromInspector];
}

const files = sourceFiles(SRC);
const graph = importGraph(files);
const name = (file: string) => relative(ROOT, file);

describe("the layout of src/", () => {
  it("holds no test code: tests and their support live under test/", () => {
    const testFiles = files.filter((file) => /\.test\.tsx?$|test-support|\/support\//.test(file)).map(name);
    expect(testFiles).toEqual([]);
    expect(files.length).toBeGreaterThan(200);
  });

  it("holds no file that only tests import: every file is reached from the package's exports, the CLI or the page", () => {
    const reached = new Set<string>();
    const queue = entryPoints(files);
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (reached.has(file)) continue;
      reached.add(file);
      queue.push(...(graph.get(file) ?? []));
    }
    expect(files.filter((file) => !reached.has(file)).map(name)).toEqual([]);
  });

  it("has no import cycle", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const path: string[] = [];
    const visit = (file: string): void => {
      state.set(file, "open");
      path.push(file);
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === "open")
          cycles.push([...path.slice(path.indexOf(target)), target].map(name).join(" → "));
        else if (!state.has(target)) visit(target);
      }
      path.pop();
      state.set(file, "done");
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it("keeps the arrows pointing one way: the remote client imports no driver", () => {
    const upward = [...graph]
      .filter(([file]) => file.startsWith(join(SRC, "client")))
      .flatMap(([file, targets]) =>
        targets.filter((t) => t.startsWith(join(SRC, "drivers"))).map((t) => `${name(file)} → ${name(t)}`),
      );
    expect(upward).toEqual([]);
  });
});
