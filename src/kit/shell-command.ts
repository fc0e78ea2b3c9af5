/** A command line with a provider's shell wrapper taken off (DESIGN.md §2 `command_execution.shell`). */
export interface UnwrappedCommand {
  command: string;
  /** The wrapper, e.g. `/bin/bash -lc`; absent when the command was not wrapped. */
  shell?: string;
}

const SHELL = /^((?:\/[\w.-]+)*\/?(?:bash|sh|zsh|dash|ksh))$/;
const FLAGS = new Set(["-c", "-lc", "-cl"]);
const BARE_WORD = /^[\w@%+=:,./-]+$/;

/**
 * Unwraps `/bin/bash -lc '<script>'` (a string, as Codex app server and exec report it) or
 * `["/bin/bash", "-lc", "<script>"]` (an argv, as EventMsg does). Anything else is returned joined and unchanged.
 * Only a script that is one whole quoted word is unwrapped: `sh -c echo hi` runs `echo` alone, so it stays as is.
 */
export function unwrapShellCommand(native: string | readonly string[]): UnwrappedCommand {
  if (typeof native !== "string") return unwrapArgv(native);
  const match = /^(\S+)\s+(-\w+)\s+([\s\S]+)$/.exec(native);
  if (match === null) return { command: native };
  const [, shell = "", flag = "", rest = ""] = match;
  if (!SHELL.test(shell) || !FLAGS.has(flag)) return { command: native };
  const script = unquoteWord(rest);
  return script === undefined ? { command: native } : { command: script, shell: `${shell} ${flag}` };
}

function unwrapArgv(argv: readonly string[]): UnwrappedCommand {
  const [shell, flag, script, ...extra] = argv;
  if (shell !== undefined && flag !== undefined && script !== undefined && extra.length === 0) {
    if (SHELL.test(shell) && FLAGS.has(flag)) return { command: script, shell: `${shell} ${flag}` };
  }
  return { command: argv.map(quoteIfNeeded).join(" ") };
}

/** The text of one POSIX-quoted word (`'…'`, `"…"`, or concatenations like `'a'\''b'`), or undefined. */
function unquoteWord(word: string): string | undefined {
  // A script that needs no quotes (`zsh -lc ls`, as exec joins the argv ["zsh", "-lc", "ls"]) is one bare word.
  if (BARE_WORD.test(word)) return word;
  let out = "";
  let i = 0;
  while (i < word.length) {
    const ch = word[i];
    if (ch === "'") {
      const end = word.indexOf("'", i + 1);
      if (end < 0) return undefined;
      out += word.slice(i + 1, end);
      i = end + 1;
    } else if (ch === '"') {
      i++;
      while (i < word.length && word[i] !== '"') {
        if (word[i] === "\\" && i + 1 < word.length && '"\\$`\n'.includes(word[i + 1] as string)) i++;
        out += word[i];
        i++;
      }
      if (i >= word.length) return undefined;
      i++;
    } else if (ch === "\\" && i + 1 < word.length) {
      out += word[i + 1];
      i += 2;
    } else if (ch === " " || ch === "\t" || ch === "\n") {
      return undefined;
    } else {
      // A bare character outside quotes is part of the word only next to quotes; a bare script is not unwrapped.
      if (!word.includes("'") && !word.includes('"')) return undefined;
      out += ch;
      i++;
    }
  }
  return out;
}

function quoteIfNeeded(arg: string): string {
  return BARE_WORD.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}
