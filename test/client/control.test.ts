import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RemoteApiError, RemoteClient, type RemoteSession } from "../../src/client/index.js";
import { UnsupportedError } from "../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { HOLD_RELEASE_FILE } from "../../src/mock-model/index.js";
import { ServeProcess } from "../server/support/serve-process.js";

// The remote client's command surface against the real `serve --mock` (the built CLI: `npm run build` first):
// listAgents, configure, attachments and delivery through a RemoteSession, a 422 back as UnsupportedError, and the
// turns route's raised body limit (and no other route's).

const TOKEN = "test-token-0123456789";
/** A 1×1 PNG. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const MIB = 1024 * 1024;
const cwds: string[] = [];
const cwd = async () => {
  const dir = await mkdtemp(join(tmpdir(), "pr-client-control-"));
  cwds.push(dir);
  return dir;
};

let serve: ServeProcess;
let client: RemoteClient;
beforeAll(async () => {
  serve = await ServeProcess.start({ token: TOKEN, extra: ["--mock", "--root", tmpdir()] });
  client = new RemoteClient({ baseUrl: serve.url, token: TOKEN });
});
afterAll(async () => {
  await serve?.stop();
  ServeProcess.removeDirs();
  await Promise.all(cwds.map((dir) => rm(dir, { recursive: true, force: true })));
});

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** Reads a session's events until `done` holds for them. */
async function readUntil(
  session: RemoteSession,
  done: (events: RuntimeEvent[]) => boolean,
): Promise<RuntimeEvent[]> {
  const events: RuntimeEvent[] = [];
  for await (const event of session.events) {
    events.push(event);
    if (done(events)) break;
  }
  return events;
}

const completedTurns = (events: RuntimeEvent[]) => events.filter((e) => e.type === "turn.completed").length;

describe("RemoteClient: the command surface", () => {
  it("listAgents: every driver and known ACP agent with its capabilities", async () => {
    const agents = await client.listAgents();
    const codex = agents.find((agent) => agent.provider === "codex");
    expect(codex).toMatchObject({ installed: true, capabilities: { steer: true, attachments: ["image"] } });
    expect(agents.filter((agent) => agent.provider === "acp").map((agent) => agent.agent)).toEqual(
      expect.arrayContaining(["claude-agent-acp", "codex-acp"]),
    );
  });

  it("configure, an image attachment, and a queued turn through a RemoteSession; 400s name the field", async () => {
    const session = await client.createDriver("codex", { cwd: await cwd() });
    await session.start();
    expect(session.capabilities.setModel).toBe(true);
    await session.configure({ model: "gpt-5.6-luna", mode: "plan" });
    const badModel = await errorOf(session.configure({ model: "no-such-model" }));
    expect(badModel).toBeInstanceOf(RemoteApiError);
    expect(badModel).toMatchObject({ status: 400, field: "model" });

    await session.sendTurn({
      text: "mock:text look",
      attachments: [{ type: "image", mediaType: "image/png", data: PNG }],
    });
    await session.sendTurn({ text: "mock:text after it", delivery: "queue" });
    const events = await readUntil(session, (all) => completedTurns(all) >= 2);
    const configured = events.filter((e) => e.type === "session.configured").map((e) => e.payload.config);
    expect(configured).toContainEqual({ model: "gpt-5.6-luna", mode: { id: "plan", canonical: "plan" } });
    const prompts = events
      .filter((e) => e.type === "item.completed" && e.payload.itemType === "user_message")
      .map((e) => e.turnId);
    expect(new Set(prompts).size).toBe(2);
    const badImage = await errorOf(
      session.sendTurn({ text: "x", attachments: [{ type: "image", mediaType: "image/bmp", data: PNG }] }),
    );
    expect(badImage).toMatchObject({ status: 400, field: expect.stringMatching(/^attachments\.0/) });
    // Codex has no file input: a file attachment is refused with the reason, and the session takes the next turn
    const notes = join(await cwd(), "notes.txt");
    await writeFile(notes, "some notes\n");
    const file = await errorOf(
      session.sendTurn({ text: "read this", attachments: [{ type: "file", path: notes }] }),
    );
    expect(file).toBeInstanceOf(UnsupportedError);
    expect(file).toMatchObject({ provider: "codex", reason: "the agent takes image attachments only" });
    await session.stop();
  });

  it("a 422 comes back as UnsupportedError naming the provider and the reason (exec cannot steer)", async () => {
    const dir = await cwd();
    const session = await client.createDriver("codex-sdk", { cwd: dir });
    // the hold scenario's command runs until the test releases it: the turn runs for as long as the test needs
    await session.sendTurn({ text: "mock:hold keep going" });
    const iterator = session.events[Symbol.asyncIterator]();
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      if (next.value.type === "item.started" && next.value.payload.itemType === "command_execution") break;
    const error = await errorOf(session.sendTurn({ text: "mock:text more", delivery: "steer" }));
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error).toMatchObject({ provider: "codex-sdk", operation: "steer a running turn" });
    await writeFile(join(dir, HOLD_RELEASE_FILE), "");
    await iterator.return?.();
    await session.stop();
  });

  it("the turns route takes a body with a 9 MiB image; other routes keep the 1 MiB limit; 10 MiB + 1 is a 400", async () => {
    const session = await client.createDriver("codex", { cwd: await cwd() });
    const nineMiB = Buffer.alloc(9 * MIB, 1).toString("base64");
    const path = `/v1/sessions/${session.sessionId}/turns`;
    const post = (json: unknown, to = path) => serve.fetch(to, { method: "POST", json });
    const image = (data: string) => ({ type: "image", mediaType: "image/png", data });
    const large = await post({ text: "mock:text big", attachments: [image(nineMiB)] });
    expect(large.status).toBe(202);
    const tooLarge = await post({
      text: "x",
      attachments: [image(Buffer.alloc(10 * MIB + 3, 1).toString("base64"))],
    });
    expect(tooLarge.status).toBe(400);
    expect(((await tooLarge.json()) as { field?: string }).field).toBe("attachments.0.data");
    const elsewhere = await post({ provider: "codex", model: nineMiB }, "/v1/sessions");
    expect(elsewhere.status).toBe(413);
    await session.stop();
  }, 120_000);
});
