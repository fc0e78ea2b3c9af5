// TEST TOOL: what the inspector's live tests share: a `serve --mock` whose data dir and TMPDIR survive a restart,
// and the page actions (start a session from the form, send a prompt, wait for a turn's end).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ServeProcess } from "../../server/support/serve-process.js";

export interface LiveServeDirs {
  /** The sessions' cwds live here (`--root`). */
  root: string;
  /** `serve --mock` on the dirs' data dir and TMPDIR (a restart reuses both), on any free port. */
  serveMock(): Promise<ServeProcess>;
  remove(): void;
}

export function liveServeDirs(prefix: string, token: string): LiveServeDirs {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const [data, root, tmp] = ["data", "root", "tmp"].map((name) => join(base, name)) as [
    string,
    string,
    string,
  ];
  for (const dir of [data, root, tmp]) mkdirSync(dir);
  return {
    root,
    serveMock: () => ServeProcess.start({ data, tmp, token, extra: ["--mock", "--root", root] }),
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** Starts a session of `provider` in `cwd` from the page's form; its id once the page shows it. */
export async function startSession(page: Page, provider: string, cwd: string): Promise<string> {
  const shown = page.locator(".session[data-session-id]");
  const previous = (await shown.count()) > 0 ? await shown.getAttribute("data-session-id") : null;
  const form = page.getByRole("form", { name: "New session" });
  await form.getByLabel("Provider").selectOption(provider);
  await form.getByLabel("Working directory").fill(cwd);
  await form.getByRole("button", { name: "Start session" }).click();
  const fresh = page.locator(
    previous === null ? ".session" : `.session:not([data-session-id="${previous}"])`,
  );
  await fresh.waitFor();
  // attached, not visible: on a narrow screen the list is a drawer that closes once a session is chosen
  await page
    .locator('.session-button[aria-current="true"]')
    .getByText(provider, { exact: true })
    .waitFor({ state: "attached" });
  return (await fresh.getAttribute("data-session-id")) as string;
}

export async function prompt(page: Page, text: string): Promise<void> {
  await page.getByLabel("Prompt").fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

export const turnRegion = (page: Page, turn: number) =>
  page.getByRole("region", { name: `Turn ${turn}`, exact: true });

/** The turn with this number (1-based) once it has ended, and how. */
export async function turnEnd(page: Page, turn: number): Promise<string | null> {
  const foot = turnRegion(page, turn).locator("[data-turn-end]");
  await foot.waitFor({ timeout: 60_000 });
  return foot.getAttribute("data-turn-end");
}
