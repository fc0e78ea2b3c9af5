import type { Page } from "playwright-core";

/**
 * Runs in the page: every element with its own visible text, its text colour against the first opaque background
 * up its ancestors, as a WCAG contrast ratio. Disabled controls are exempt (as in WCAG 1.4.3).
 */
const LOW_CONTRAST = `(() => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const low = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest(":disabled")) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== "");
    if (!own || el.getClientRects().length === 0) continue;
    const fg = lum(rgb(getComputedStyle(el).color));
    const bg = lum(background(el));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    if (ratio < 4.5) low.push(el.tagName + "." + el.className + " " + ratio.toFixed(2) + ": " + el.textContent.slice(0, 40));
  }
  return low;
})()`;

/** The texts of the page whose contrast is below 4.5:1 (WCAG AA for normal text). */
export function lowContrastTexts(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(LOW_CONTRAST);
}
