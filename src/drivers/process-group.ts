import { firstExecutable } from "./fixed-programs.js";

/**
 * How a guard and its agent each get a process group of their own while staying in the host's session. Node can
 * only make a new session (`detached`), and Linux's autogroup scheduling puts every session in a group of its own
 * that competes with the host's as a whole: there, an agent in SCHED_IDLE is preempted by a waking server thread
 * only once its group's slice is over, not at once as within one group (50 × 5 at 10 deltas/s: p99 7.6 ms in the
 * host's session, 9.5–11.1 ms in sessions of their own; docs/performance.md). Perl's `setpgrp` makes the group and
 * then execs the program (same pid). Where Perl is missing, a session of its own.
 */
const PERL = ["/usr/bin/perl", "/bin/perl"];

/** Exit 127 (as a shell's "not found") when the program cannot be run; the rest is the program's own. */
const EXEC = 'exec { $ARGV[0] } @ARGV or do { print STDERR "$ARGV[0]: $!\\n"; exit 127 }';
const SETPGRP_EXEC = `setpgrp(0, 0) or die "setpgrp: $!\\n"; ${EXEC}`;

/**
 * For the guard itself: Linux's PR_SET_CHILD_SUBREAPER (prctl 36), which an exec keeps. A process the agent starts
 * in a session or group of its own (Codex's sandbox helper setsid()s) escapes the signals to the agent's group;
 * with the guard as its subreaper it becomes the guard's child when its parent exits, and the guard waits for it
 * (process-guard.ts). Where the call is missing (not Linux, no syscall.ph), the program runs as before.
 */
const SUBREAPER =
  'if ($^O eq "linux") { eval { require "syscall.ph"; syscall(&SYS_prctl, 36, 1, 0, 0, 0) } } ';

let perl: string | null | undefined;

/** The command prefix that runs a program in a new process group of the caller's session; undefined without Perl. */
export function newGroupPrefix(): string[] | undefined {
  perl ??= firstExecutable(PERL) ?? null;
  return perl === null ? undefined : [perl, "-e", SETPGRP_EXEC];
}

/**
 * The prefix that starts a guard as the subreaper of what its agent leaves behind, in a new process group of the
 * caller's session (`newGroup`) or in the caller's own group; undefined without Perl.
 */
export function guardPrefix(newGroup: boolean): string[] | undefined {
  perl ??= firstExecutable(PERL) ?? null;
  if (perl === null) return undefined;
  return [perl, "-e", newGroup ? SUBREAPER + SETPGRP_EXEC : `${SUBREAPER}${EXEC}`];
}
