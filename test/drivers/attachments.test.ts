import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidCommandError, UnsupportedError } from "../../src/contracts/driver.js";
import { MAX_ATTACHMENT_BYTES, resolveAttachments } from "../../src/drivers/attachments.js";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pr-attachments-"));
  await writeFile(join(dir, "pixel.png"), Buffer.from(PNG, "base64"));
  await writeFile(join(dir, "notes.txt"), "some notes\n");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const resolveWith = (attachments: unknown[], supported: ("image" | "file")[] = ["image", "file"]) =>
  resolveAttachments(
    { text: "x", attachments: attachments as never },
    { provider: "p", cwd: dir, supported },
  );
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("resolveAttachments", () => {
  it("reads inline data and files (relative to the cwd), with their media type", async () => {
    const resolved = await resolveWith([
      { type: "image", mediaType: "image/png", data: PNG },
      { type: "image", path: "pixel.png" },
      { type: "file", path: join(dir, "notes.txt") },
    ]);
    expect(resolved.map((a) => [a.type, a.mediaType, a.data === PNG || a.data.length > 0])).toEqual([
      ["image", "image/png", true],
      ["image", "image/png", true],
      ["file", "text/plain", true],
    ]);
    expect(resolved[1]?.path).toBe(join(dir, "pixel.png"));
  });

  it("names the field of what is wrong: media type, base64, size, a missing file", async () => {
    const cases: [unknown, string][] = [
      [{ type: "image", mediaType: "image/bmp", data: PNG }, "attachments.0.mediaType"],
      [{ type: "image", mediaType: "image/png", data: "%%%" }, "attachments.0.data"],
      [
        {
          type: "image",
          mediaType: "image/png",
          data: "A".repeat(Math.ceil((MAX_ATTACHMENT_BYTES + 3) / 3) * 4),
        },
        "attachments.0.data",
      ],
      [{ type: "file", path: "missing.txt" }, "attachments.0.path"],
      [{ type: "image", path: "notes.txt" }, "attachments.0.mediaType"],
    ];
    for (const [attachment, field] of cases) {
      const error = await errorOf(resolveWith([attachment]));
      expect(error, JSON.stringify(attachment).slice(0, 80)).toBeInstanceOf(InvalidCommandError);
      expect(error).toMatchObject({ field });
    }
  });

  it("a kind the provider does not take is an UnsupportedError", async () => {
    const error = await errorOf(resolveWith([{ type: "file", path: "notes.txt" }], ["image"]));
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error).toMatchObject({ provider: "p", reason: "the agent takes image attachments only" });
  });
});
