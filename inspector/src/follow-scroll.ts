import type { RefObject } from "preact";
import { useCallback, useLayoutEffect, useRef, useState } from "preact/hooks";

/** Closer to the bottom than this (px) counts as at the bottom. */
const NEAR_BOTTOM_PX = 48;

/**
 * Keeps a scroller at its bottom while new content arrives, unless the user scrolled up: then `behind` is true
 * (new content below) until they come back down or `jump()`. Only a move upward by the user unpins it: a scroll
 * event that lands short of the bottom because content grew after an automatic scroll does not.
 */
export function useFollowScroll(scroller: RefObject<HTMLElement | null>, version: unknown) {
  const pinned = useRef(true);
  const autoTop = useRef(0);
  const [behind, setBehind] = useState(false);

  const toBottom = useCallback(() => {
    const el = scroller.current;
    if (el === null) return;
    el.scrollTop = el.scrollHeight;
    autoTop.current = el.scrollTop;
  }, [scroller]);

  useLayoutEffect(() => {
    if (pinned.current) toBottom();
    else setBehind(true);
  }, [version, toBottom]);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (el === null) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
    if (atBottom) {
      pinned.current = true;
      autoTop.current = el.scrollTop;
      setBehind(false);
    } else if (el.scrollTop < autoTop.current - 2) {
      pinned.current = false;
    }
  }, [scroller]);

  const jump = useCallback(() => {
    pinned.current = true;
    setBehind(false);
    toBottom();
  }, [toBottom]);

  return { onScroll, behind, jump };
}
