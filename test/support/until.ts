/**
 * Polls `condition` until it holds, for tests that watch another process (a server, an agent): resolves true as soon
 * as it does, false when `timeoutMs` passed without it (the caller's assertion then names what was awaited).
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  intervalMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return true;
}
