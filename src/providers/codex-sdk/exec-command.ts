import { type UnwrappedCommand, unwrapShellCommand } from "../../kit/shell-command.js";

/** A word the shell-style join exec uses would have written without quotes. */
const BARE_WORD = /^[\w@%+=:,./-]+$/;

/**
 * exec's `command` is the command's argv joined shell-style: a script that needs no quotes appears bare
 * (`zsh -lc ls` is the argv `["zsh", "-lc", "ls"]`, as in a real 0.46 `codex exec --json` stream). The string
 * form of the unwrapper leaves a bare script alone, so such a line is unwrapped as the argv it stands for, and
 * the title is the same whether a provider reports the argv or its joined string.
 */
export function execCommand(native: string): UnwrappedCommand {
  const unwrapped = unwrapShellCommand(native);
  if (unwrapped.shell !== undefined) return unwrapped;
  const words = native.split(" ");
  if (words.length !== 3 || !BARE_WORD.test(words[2] ?? "")) return unwrapped;
  const argv = unwrapShellCommand(words);
  return argv.shell === undefined ? unwrapped : argv;
}
