/**
 * Reads the SDKMessage kinds (`type`, or `type:subtype`) from the installed SDK's `sdk.d.ts`: the members of the
 * `SDKMessage` union, following aliases that are unions themselves, and the string literals of each object
 * type's top-level `type` and `subtype` properties. Node-only; used by the coverage test.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export function installedSdkDeclarations(): { version: string; text: string } {
  const require = createRequire(import.meta.url);
  // The package's exports do not list package.json: find it next to the resolved entry point.
  const manifestPath = join(dirname(require.resolve("@anthropic-ai/claude-agent-sdk")), "package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { version: string; types?: string };
  return {
    version: manifest.version,
    text: readFileSync(join(dirname(manifestPath), manifest.types ?? "sdk.d.ts"), "utf8"),
  };
}

export function sdkMessageKinds(declarations: string): string[] {
  const text = declarations.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
  const kinds = new Set<string>();
  const visit = (name: string, depth: number): void => {
    const body = typeBody(text, name);
    if (body === undefined || depth > 5) throw new Error(`sdk.d.ts: no declaration of ${name}`);
    if (!body.trimStart().startsWith("{")) {
      for (const member of splitTopLevel(body, "|")) visit(member.trim(), depth + 1);
      return;
    }
    const top = topLevelProperties(body);
    const types = literals(top.get("type"));
    const subtypes = literals(top.get("subtype"));
    if (types.length === 0) throw new Error(`sdk.d.ts: ${name} has no literal type`);
    for (const type of types) {
      if (subtypes.length === 0) kinds.add(type);
      for (const subtype of subtypes) kinds.add(`${type}:${subtype}`);
    }
  };
  const union = typeBody(text, "SDKMessage");
  if (union === undefined) throw new Error("sdk.d.ts: no SDKMessage type");
  for (const member of splitTopLevel(union, "|")) visit(member.trim(), 0);
  return [...kinds].sort();
}

/** The text after `type NAME =` up to its terminating top-level `;`. */
function typeBody(text: string, name: string): string | undefined {
  const match = new RegExp(`(?:export\\s+)?declare\\s+type\\s+${name}\\s*=`).exec(text);
  if (match === null) return undefined;
  let depth = 0;
  for (let i = match.index + match[0].length; i < text.length; i++) {
    const c = text[i];
    if (c === "{" || c === "(" || c === "[" || c === "<") depth++;
    else if (c === "}" || c === ")" || c === "]" || c === ">") depth--;
    else if (c === ";" && depth === 0) return text.slice(match.index + match[0].length, i);
  }
  return undefined;
}

function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{" || c === "(" || c === "[" || c === "<") depth++;
    else if (c === "}" || c === ")" || c === "]" || c === ">") depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.filter((part) => part.trim().length > 0);
}

/** `{ a: X; b?: Y; }` → property name → its type text, for the outermost object only. */
function topLevelProperties(body: string): Map<string, string> {
  const inner = body.trim().slice(1, -1);
  const props = new Map<string, string>();
  for (const member of splitTopLevel(inner, ";")) {
    const match = /^\s*([A-Za-z_$][\w$]*)\??\s*:([\s\S]*)$/.exec(member);
    if (match?.[1] !== undefined && match[2] !== undefined) props.set(match[1], match[2].trim());
  }
  return props;
}

function literals(typeText: string | undefined): string[] {
  if (typeText === undefined) return [];
  return [...typeText.matchAll(/'([^']*)'|"([^"]*)"/g)].map((m) => m[1] ?? m[2] ?? "");
}
