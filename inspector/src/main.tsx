import { render } from "preact";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { LiveApp } from "./components/LiveApp.js";
import { StaticApp } from "./components/StaticApp.js";
import { exchangeLoginCode } from "./token.js";
import "./styles.css";

/** `view --html` embeds its events in this element; without it the page is the live inspector. */
export const EMBEDDED_EVENTS_ID = "provider-runtime-events";

function embeddedEvents(): RuntimeEvent[] | undefined {
  const element = document.getElementById(EMBEDDED_EVENTS_ID);
  if (element === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(element.textContent ?? "[]");
    return Array.isArray(parsed)
      ? parsed.filter((e): e is RuntimeEvent => typeof e === "object" && e !== null && "type" in e)
      : [];
  } catch {
    return [];
  }
}

const root = document.getElementById("app");
if (root !== null) {
  const events = embeddedEvents();
  if (events !== undefined) render(<StaticApp events={events} />, root);
  else void exchangeLoginCode(location, history, sessionStorage).finally(() => render(<LiveApp />, root));
}
