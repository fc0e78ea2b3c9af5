import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { projectEvents } from "../../src/projection/index.js";
import { TimelineRenderer } from "../../src/view/timeline.js";
import { sampleEvent } from "../support/sample-events.js";

const item = (type: "item.started" | "item.completed", sequence: number, payload: object) =>
  sampleEvent(type, sequence, { itemId: "item_1", payload } as Partial<RuntimeEvent>);

describe("timeline and projection read item details", () => {
  const command = {
    itemType: "command_execution",
    status: "completed",
    title: "ignored title",
    details: { command: "echo hi", shell: "/bin/bash -lc", exitCode: 0 },
  };
  const edit = {
    itemType: "file_change",
    status: "completed",
    details: {
      changes: [
        { path: "/w/a.txt", kind: "update", diff: "--- a/w/a.txt\n+++ b/w/a.txt\n@@ -1 +1 @@\n-a\n+b\n" },
      ],
    },
  };

  it("prints a command with its exit code and a file change with its diff", () => {
    const timeline = new TimelineRenderer({ color: false });
    const lines = [
      ...timeline.render(item("item.completed", 1, command)),
      ...timeline.render(item("item.completed", 2, { ...edit })),
    ].join("\n");
    expect(lines).toContain("command_execution · completed · $ echo hi → exit 0");
    expect(lines).not.toContain("ignored title");
    expect(lines).toContain("file_change · completed · update /w/a.txt");
    expect(lines).toContain("\n    -a\n    +b");
  });

  it("keeps the latest details on the item view", () => {
    const view = projectEvents([
      item("item.started", 1, { itemType: "command_execution", details: { command: "echo hi" } }),
      item("item.completed", 2, command),
    ]);
    expect(view.items[0]?.details).toEqual(command.details);
  });
});
