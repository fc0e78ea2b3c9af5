import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** Where `npm run build` puts the inspector (this file sits in src/cli/commands or dist/cli/commands). */
export const INSPECTOR_DIR = fileURLToPath(new URL("../../../dist/inspector/", import.meta.url));

/** The element the page reads its events from (inspector/src/main.tsx). */
const EVENTS_ID = "provider-runtime-events";

/**
 * The static page's policy, in place of the live page's (scripts from 'self'): no network at all, only the page's
 * own inline script and stylesheet (by their hashes: no other inline script, such as one an event's text might
 * smuggle in, could run), images only as data URLs. A recorded stream is hostile input like any other.
 */
function staticPolicy(script: string, style: string): string {
  const hash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
  return `default-src 'none'; script-src ${hash(script)}; style-src ${hash(style)}; img-src data:; base-uri 'none'; form-action 'none'`;
}

/** A static page as the text before and after its events' JSON array. */
export interface StaticPage {
  before: string;
  after: string;
}

/**
 * The built inspector page with its script and stylesheet inlined and a slot for the events: one self-contained
 * file. Rejects when the inspector is not built.
 */
export async function loadStaticPage(dir = INSPECTOR_DIR): Promise<StaticPage> {
  const html = await readFile(`${dir}index.html`, "utf8");
  const script = /<script type="module"[^>]*\ssrc="\.\/([^"]+\.js)"[^>]*><\/script>/.exec(html);
  const style = /<link rel="stylesheet"[^>]*\shref="\.\/([^"]+\.css)"[^>]*>/.exec(html);
  if (script?.[1] === undefined || style?.[1] === undefined)
    throw new Error(`${dir}index.html does not name one script and one stylesheet`);
  const js = (await readFile(`${dir}${script[1]}`, "utf8")).replace(/<\/(script)/gi, "<\\/$1");
  const css = (await readFile(`${dir}${style[1]}`, "utf8")).replace(/<\/(style)/gi, "<\\/$1");
  const livePolicy = /<meta\s+http-equiv="Content-Security-Policy"[^>]*>/.exec(html);
  if (livePolicy === null) throw new Error(`${dir}index.html has no Content-Security-Policy`);
  const page = html
    .replace(livePolicy[0], "")
    .replace(script[0], "")
    .replace(style[0], () => `<style>${css}</style>`)
    .replace(
      '<meta charset="utf-8" />',
      `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${staticPolicy(js, css)}" />`,
    )
    .replace("<title>provider-runtime inspector</title>", "<title>provider-runtime session</title>");
  const slot = `<script type="application/json" id="${EVENTS_ID}">[`;
  const end = `]</script>\n    <script type="module">${js}</script>\n  </body>`;
  const at = page.lastIndexOf("</body>");
  if (at < 0) throw new Error(`${dir}index.html has no </body>`);
  return { before: `${page.slice(0, at)}${slot}`, after: `${end}${page.slice(at + "</body>".length)}` };
}

/**
 * One event as it goes into the page: without `raw` (the timeline never reads it, and it is most of a stream's
 * size), and with `<` escaped so no string in it can close the script element.
 */
export function embeddedEventJson(event: object): string {
  const { raw: _raw, ...rest } = event as Record<string, unknown>;
  return JSON.stringify(rest).replace(/</g, "\\u003c");
}
