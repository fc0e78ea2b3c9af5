import { copyFile, cp, mkdir, realpath, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { ForkBody } from "../api/session-admin-schemas.js";
import type { ForkSource } from "../contracts/driver.js";
import type { ForkAnchorOf } from "../drivers/fork-anchors.js";
import { defaultRoots } from "../history/sources.js";
import { isObject } from "../kit/guards.js";
import { claudeForkAnchor } from "../providers/claude/fork-anchor.js";
import { claudeProjectDirName } from "../providers/claude/project-dir.js";
import { codexForkAnchor } from "../providers/codex/fork-anchor.js";
import type { SessionRecord, SessionStore } from "../store/types.js";
import { CLAUDE_CONFIG_DIR, CODEX_HOME_DIR } from "./native-state.js";
import { SessionCommandError } from "./session-commands.js";
import { eachStoredEvent, forkPointOf } from "./session-fork.js";
import type { SessionPaths } from "./session-paths.js";

/** The live provider that resumes each imported format natively, and how its turns are marked. */
const RESUMERS: Record<string, { provider: "claude" | "codex"; anchorOf: ForkAnchorOf }> = {
  "claude-code": { provider: "claude", anchorOf: claudeForkAnchor },
  "codex-rollout": { provider: "codex", anchorOf: codexForkAnchor },
};

/** `rollout-YYYY-MM-DDThh-mm-ss-<thread id>.jsonl`: Codex finds a thread by the id in the file's name. */
const ROLLOUT_NAME = /^rollout-(\d{4})-(\d{2})-(\d{2})T[\d-]+-(.+)\.jsonl$/;

/** How a fork of an imported history starts: a live session of `provider` in `cwd`, opening `source`. */
export interface ImportedForkPlan {
  provider: "claude" | "codex";
  source: ForkSource;
  /** The cwd the history ran in, checked against `--root`. */
  cwd: string;
  /** Puts the native file into the fork's state dir where its agent looks for it. */
  place(stateDir: string): Promise<void>;
}

export interface ImportedForkOptions {
  /**
   * The agents keep their native state in each session's dir (against a model server of ours). False: they use
   * the user's own config homes, where the native file must already lie.
   */
  ownState: boolean;
  env?: NodeJS.ProcessEnv;
}

/**
 * A live fork of an imported (read-only) history, where the provider that wrote it can resume its native id: a
 * Claude Code session file becomes a `claude` session, a Codex rollout a `codex` one. 422 with the reason where it
 * cannot: another format, the native file gone or changed since the import, the cwd it ran in missing or outside
 * `--root`.
 */
export async function importedForkPlan(
  store: SessionStore,
  paths: SessionPaths,
  parent: SessionRecord,
  body: ForkBody,
  options: ImportedForkOptions,
): Promise<ImportedForkPlan> {
  const unsupported = (why: string) =>
    new SessionCommandError(
      "unsupported",
      `session ${parent.id} is an imported ${parent.provider} history: ${why}`,
    );
  const resumer = RESUMERS[parent.provider];
  if (resumer === undefined) throw unsupported("no agent here resumes that format");
  const from = parent.importedFrom;
  if (from === undefined) throw unsupported("its record names no native file");
  await unchangedSinceImport(from, unsupported);
  const facts = await historyFacts(store, parent);
  const ranIn = parent.cwd ?? facts.cwd;
  if (ranIn === undefined) throw unsupported("it names no cwd to resume it in");
  const cwd = await allowedCwd(paths, ranIn, unsupported);
  const nativeId = facts.nativeId;
  if (nativeId === undefined) throw unsupported("its events name no native session id");
  const rollout = ROLLOUT_NAME.exec(basename(from.path));
  if (resumer.provider === "codex" && rollout?.[4] !== nativeId)
    throw unsupported(`${from.path} is not named rollout-<time>-${nativeId}.jsonl, where Codex looks for it`);
  const source = await forkPointOf(store, parent, body, { sessionId: parent.id, nativeId }, resumer.anchorOf);
  const file = from.path;
  if (!options.ownState) {
    await inUserHome(resumer.provider, file, cwd, nativeId, options.env, unsupported);
    return { provider: resumer.provider, source, cwd, place: async () => undefined };
  }
  const place = async (stateDir: string) => {
    if (resumer.provider === "claude") {
      const project = join(stateDir, CLAUDE_CONFIG_DIR, "projects", claudeProjectDirName(cwd));
      await placeCopy(file, join(project, `${nativeId}.jsonl`), from.bytes, unsupported);
      // a session's subagents keep their own files beside it, in a dir named after the session
      const sidecar = join(dirname(file), basename(file, ".jsonl"));
      if (await isDir(sidecar)) await cp(sidecar, join(project, nativeId), { recursive: true });
      return;
    }
    const [, year, month, day] = rollout as RegExpExecArray;
    const dir = join(stateDir, CODEX_HOME_DIR, "sessions", year as string, month as string, day as string);
    await placeCopy(file, join(dir, basename(file)), from.bytes, unsupported);
  };
  return { provider: resumer.provider, source, cwd, place };
}

type Refusal = (why: string) => SessionCommandError;

/** The native file is still the one imported: the stored events are all there is of it. */
async function unchangedSinceImport(
  from: NonNullable<SessionRecord["importedFrom"]>,
  unsupported: Refusal,
): Promise<void> {
  const info = await stat(from.path).catch(() => undefined);
  if (info === undefined || !info.isFile())
    throw unsupported(`its native file ${from.path} is gone since the import, so no agent can resume it`);
  if (info.size !== from.bytes || info.mtimeMs !== from.mtimeMs) {
    throw unsupported(
      `its native file ${from.path} changed since the import (${from.bytes} bytes then, ${info.size} now): ` +
        "import it again, then fork",
    );
  }
}

/** The cwd the history ran in, where its agent must resume it (Claude Code files its sessions by cwd). */
async function allowedCwd(paths: SessionPaths, cwd: string, unsupported: Refusal): Promise<string> {
  try {
    return await paths.checkedCwd("", cwd);
  } catch (error) {
    if (!(error instanceof SessionCommandError)) throw error;
    throw unsupported(`it ran in ${cwd}, where no fork can run: ${error.message}`);
  }
}

/**
 * What the history's events say of it: the native session (Claude) or thread (Codex) id, and the cwd it ran in
 * where the record has none (a Claude Code file gives it on each record, which the store keeps as the raw).
 */
async function historyFacts(
  store: SessionStore,
  parent: SessionRecord,
): Promise<{ nativeId?: string; cwd?: string }> {
  const facts: { nativeId?: string; cwd?: string } = {};
  await eachStoredEvent(store, parent.id, (event) => {
    if (facts.nativeId === undefined && event.type === "thread.started") {
      const id = event.providerRefs?.providerThreadId;
      if (id !== undefined) facts.nativeId = id;
    }
    const record = event.raw?.payload;
    if (facts.cwd === undefined && isObject(record) && typeof record.cwd === "string") facts.cwd = record.cwd;
  });
  return facts;
}

/** Copies the native file, then checks that what was copied is what was imported (it may change meanwhile). */
async function placeCopy(file: string, to: string, bytes: number, unsupported: Refusal): Promise<void> {
  await mkdir(dirname(to), { recursive: true, mode: 0o700 });
  await copyFile(file, to);
  if ((await stat(to)).size !== bytes)
    throw unsupported(`its native file ${file} changed while it was copied: import it again, then fork`);
}

/**
 * Agents on the user's own config homes (no model server of ours) find a session only where they keep theirs:
 * the native file must already lie there.
 */
async function inUserHome(
  provider: "claude" | "codex",
  file: string,
  cwd: string,
  nativeId: string,
  env: NodeJS.ProcessEnv | undefined,
  unsupported: Refusal,
): Promise<void> {
  const roots = defaultRoots(env);
  const real = await realpath(file).catch(() => file);
  if (provider === "claude") {
    // Claude Code is given the host's CLAUDE_CONFIG_DIR (agent-env passes CLAUDE_*)
    const configDir = env?.CLAUDE_CONFIG_DIR;
    const projects =
      configDir === undefined || configDir === "" ? roots["claude-code"] : join(configDir, "projects");
    const expected = join(projects, claudeProjectDirName(cwd), `${nativeId}.jsonl`);
    if ((await realpath(expected).catch(() => expected)) !== real)
      throw unsupported(
        `its agent runs on your own config home and looks for it at ${expected}, not ${file}`,
      );
    return;
  }
  const sessions = await realpath(roots["codex-rollout"]).catch(() => roots["codex-rollout"]);
  if (!real.startsWith(`${sessions}/`))
    throw unsupported(
      `its agent runs on your own CODEX_HOME and looks for it under ${sessions}, not at ${file}`,
    );
}

async function isDir(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}
