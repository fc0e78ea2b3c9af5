// `npm run bench:inspector` (after `npm run build`): a 10,000-event session as a `view --html` page in Debian's
// chromium: time to first paint, time until the last event is rendered, long tasks while loading, and scrolling
// the whole timeline (long tasks and the longest gap between frames).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bigSession } from "../test/inspector/support/big-session.js";
import { launchChromium, REPO } from "../test/inspector/support/browser.js";
import { liveTrials } from "./inspector-live.js";

const SIZE = Number(process.env.BENCH_EVENTS ?? 10_000);
const TRIALS = Math.max(1, Number(process.env.BENCH_TRIALS ?? 3));
const out = (line: string) => process.stdout.write(`${line}\n`);

/** Set up in the page before its script runs: long tasks, and the moment the last event is in the DOM. */
const PROBE = (last: number) => `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  new MutationObserver((_, observer) => {
    if (document.querySelector('[data-last-sequence="${last}"]')) {
      window.__rendered = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true, attributes: true });
`;

interface Trial {
  firstPaintMs: number;
  renderedMs: number;
  loadLongTasks: number;
  loadLongestMs: number;
  lastTurnShownMs: number;
  scrollLongTasks: number;
  scrollLongestTaskMs: number;
  scrollMaxFrameGapMs: number;
}

const dir = mkdtempSync(join(tmpdir(), "bench-inspector-"));
const browser = await launchChromium();
try {
  const events = bigSession(SIZE);
  const input = join(dir, "big.jsonl");
  writeFileSync(input, `${events.map((e) => JSON.stringify(e)).join("\n")}\n`);
  const html = join(dir, "big.html");
  const cli = spawnSync(process.execPath, [join(REPO, "bin/provider-runtime.js"), "view", "--html", input], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (cli.status !== 0) throw new Error(`view --html failed: ${cli.stderr}`);
  writeFileSync(html, cli.stdout);
  const turns = new Set(events.map((e) => e.turnId).filter(Boolean)).size;
  const items = new Set(events.map((e) => e.itemId).filter(Boolean)).size;
  out(
    `inspector bench — ${events.length.toLocaleString("en-US")} events (${turns} turns, ${items} items), page ${(statSync(html).size / 1e6).toFixed(1)} MB, chromium headless, ${TRIALS} trials`,
  );
  const trials: Trial[] = [];
  for (let trial = 0; trial < TRIALS; trial++) {
    // bypassCSP: the page's policy forbids the string evaluation waitForFunction polls with
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await page.addInitScript(PROBE(events.length));
    await page.goto(pathToFileURL(html).href);
    await page.waitForFunction("window.__rendered !== undefined", undefined, { timeout: 120_000 });
    const load = await page.evaluate<{
      fcp: number;
      rendered: number;
      tasks: Array<{ duration: number }>;
    }>(`({
      fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      rendered: window.__rendered,
      tasks: window.__longTasks.slice(),
    })`);
    const lastTurnShownMs = await page.evaluate<number>(`new Promise((done) => {
      const start = performance.now();
      document.querySelector("section.turn:last-of-type").scrollIntoView();
      requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - start)));
    })`);
    await page.evaluate("window.scrollTo(0, 0); window.__longTasks.length = 0");
    const scroll = await page.evaluate<{
      maxGap: number;
      tasks: Array<{ duration: number }>;
    }>(`new Promise((done) => {
      let last = performance.now();
      let maxGap = 0;
      const step = () => {
        const now = performance.now();
        maxGap = Math.max(maxGap, now - last);
        last = now;
        window.scrollBy(0, 600);
        if (window.scrollY + window.innerHeight < document.documentElement.scrollHeight - 1) requestAnimationFrame(step);
        else done({ maxGap, tasks: window.__longTasks.slice() });
      };
      requestAnimationFrame(step);
    })`);
    trials.push({
      firstPaintMs: load.fcp,
      renderedMs: load.rendered,
      loadLongTasks: load.tasks.length,
      loadLongestMs: Math.max(0, ...load.tasks.map((t) => t.duration)),
      lastTurnShownMs,
      scrollLongTasks: scroll.tasks.length,
      scrollLongestTaskMs: Math.max(0, ...scroll.tasks.map((t) => t.duration)),
      scrollMaxFrameGapMs: scroll.maxGap,
    });
    await context.close();
  }
  const median = (key: keyof Trial) => {
    const values = trials.map((t) => t[key]).sort((a, b) => a - b);
    return Math.round(values[Math.floor(values.length / 2)] as number);
  };
  out("measure (median of trials)                     ms / count");
  out(`first contentful paint                         ${median("firstPaintMs")}`);
  out(`last event rendered (from navigation)          ${median("renderedMs")}`);
  out(
    `long tasks while loading / longest             ${median("loadLongTasks")} / ${median("loadLongestMs")}`,
  );
  out(`jump to the last turn until painted            ${median("lastTurnShownMs")}`);
  out(
    `scroll top→bottom: long tasks / longest        ${median("scrollLongTasks")} / ${median("scrollLongestTaskMs")}`,
  );
  out(`scroll top→bottom: longest gap between frames  ${median("scrollMaxFrameGapMs")}`);
  if (process.argv.includes("--live")) {
    const live = await liveTrials(browser, events, join(dir, "live"), TRIALS);
    const mid = (values: number[]) =>
      Math.round(values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number);
    out(`live page (serve, SSE): first contentful paint  ${mid(live.map((t) => t.firstPaintMs))}`);
    out(`live page (serve, SSE): last event rendered     ${mid(live.map((t) => t.lastEventMs))}`);
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
