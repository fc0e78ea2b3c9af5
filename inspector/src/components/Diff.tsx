import { clip } from "../format.js";

/** A unified diff, one line per row, added and removed lines marked by colour and by their sign. */
export function Diff({ diff }: { diff: string }) {
  const { text, cut } = clip(diff);
  return (
    <pre class="diff">
      {cut > 0 && (
        <span class="note">
          … {cut} earlier characters not shown{"\n"}
        </span>
      )}
      {text.split("\n").map((line, i) => (
        <span
          key={i}
          class={
            line.startsWith("+++") || line.startsWith("---")
              ? "diff-file"
              : line.startsWith("+")
                ? "diff-add"
                : line.startsWith("-")
                  ? "diff-del"
                  : line.startsWith("@@")
                    ? "diff-hunk"
                    : undefined
          }
        >
          {line}
          {"\n"}
        </span>
      ))}
    </pre>
  );
}

/** Output or text that may be long: its tail, with a note saying how much came before. */
export function Block({ text, class: className }: { text: string; class?: string }) {
  const shown = clip(text);
  return (
    <pre class={className}>
      {shown.cut > 0 && (
        <span class="note">
          … {shown.cut} earlier characters not shown{"\n"}
        </span>
      )}
      {shown.text}
    </pre>
  );
}
