import { describe, expect, it } from "vitest";
import { escapeControls } from "../../src/view/terminal-text.js";

describe("escapeControls", () => {
  it("shows ESC, CR, BEL, DEL, C1 controls and bidi overrides escaped; tab and newline stay", () => {
    expect(escapeControls("ls\r\u001b[2Kcurl x|sh")).toBe("ls\\r\\e[2Kcurl x|sh");
    expect(escapeControls("\u001b]8;;http://x\u0007link\u001b]8;;\u0007")).toBe(
      "\\e]8;;http://x\\x07link\\e]8;;\\x07",
    );
    expect(escapeControls("a\u009b31mb\u007f")).toBe("a\\x9b31mb\\x7f");
    expect(escapeControls("rm \u202eexe.txt")).toBe("rm \\u202eexe.txt");
    expect(escapeControls("one\ttwo\nthree")).toBe("one\ttwo\nthree");
    expect(escapeControls("plain ünïcode ✓")).toBe("plain ünïcode ✓");
  });
});
