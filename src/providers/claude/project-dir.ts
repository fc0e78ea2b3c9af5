/** Claude Code's cap on a project dir's name; a longer one is cut and told apart by a hash of the whole cwd. */
const MAX_NAME = 200;

/**
 * The name of the dir under `<config dir>/projects/` where Claude Code keeps the sessions of a cwd, as Claude Code
 * 2.x computes it: every character but an ASCII letter or digit becomes "-"; past 200 characters the name is cut
 * and a base-36 hash of the cwd (a 32-bit string hash) is appended.
 */
export function claudeProjectDirName(cwd: string): string {
  const name = cwd.replace(/[^a-zA-Z0-9]/g, "-");
  if (name.length <= MAX_NAME) return name;
  return `${name.slice(0, MAX_NAME)}-${Math.abs(stringHash(cwd)).toString(36)}`;
}

function stringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}
