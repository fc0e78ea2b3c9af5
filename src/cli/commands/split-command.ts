/** Splits a command line on spaces, honouring simple single and double quotes. */
export function splitCommand(command: string): string[] {
  const parts = command.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  return parts.map((part) => part.replace(/^(["'])(.*)\1$/, "$2"));
}
