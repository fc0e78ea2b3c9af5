import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CommandSeal } from "../../src/cluster/command-seal.js";
import { MessageAuth, readClusterSecret } from "../../src/store/jetstream/message-auth.js";
import { parseNatsServers, redactUrl } from "../../src/store/jetstream/nats-credentials.js";
import { decodeRecord, encodeRecord } from "../../src/store/jetstream/record-codec.js";

const dir = mkdtempSync(join(tmpdir(), "nats-credentials-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("--nats URLs", () => {
  it("take the credentials out of the URLs, which the client would not send", () => {
    expect(parseNatsServers("nats://al:s3cr%40t@127.0.0.1:4222,nats://al:s3cr%40t@h2:4223")).toEqual({
      servers: ["nats://127.0.0.1:4222", "nats://h2:4223"],
      credentials: { user: "al", pass: "s3cr@t" },
    });
    expect(parseNatsServers("tok@127.0.0.1:4222").credentials).toEqual({ token: "tok" });
    expect(parseNatsServers("nats://u:@h").credentials).toEqual({ user: "u", pass: "" });
    expect(() => parseNatsServers("nats://a:b@h1,nats://c:d@h2")).toThrow(/different credentials/);
  });

  it("fall back on the environment, as the nats CLI names it", () => {
    const env = { NATS_USER: "x", NATS_PASSWORD: "y" };
    expect(parseNatsServers("nats://h:1", env).credentials).toEqual({ user: "x", pass: "y" });
    expect(parseNatsServers("nats://h:1", { NATS_TOKEN: "t" }).credentials).toEqual({ token: "t" });
    expect(parseNatsServers("nats://u:p@h:1", { NATS_TOKEN: "t" }).credentials).toEqual({
      user: "u",
      pass: "p",
    });
  });

  it("are shown without a password, whatever it holds", () => {
    const text = "nats://al:s3cr@t@127.0.0.1:4222,nats://tok@h2:4223 failed";
    expect(redactUrl(text)).toBe("nats://***@127.0.0.1:4222,nats://***@h2:4223 failed");
    expect(redactUrl(text)).not.toMatch(/s3cr|tok/);
  });
});

describe("the cluster secret", () => {
  it("is refused when short or readable by others", async () => {
    const short = join(dir, "short");
    writeFileSync(short, "too short\n", { mode: 0o600 });
    await expect(readClusterSecret(short)).rejects.toThrow(/at least 32 bytes/);
    const open = join(dir, "open");
    writeFileSync(open, "x".repeat(40), { mode: 0o644 });
    await expect(readClusterSecret(open)).rejects.toThrow(/chmod 600/);
  });

  it("tags registry records: a changed, moved or untagged record is forged", () => {
    const auth = new MessageAuth(Buffer.alloc(32, 7));
    const record = { id: "ses_a", provider: "codex", cwd: "/work" } as Parameters<typeof encodeRecord>[1];
    const bytes = encodeRecord(auth, record);
    expect(decodeRecord(auth, "ses_a", bytes)).toEqual(record);
    expect(decodeRecord(auth, "ses_b", bytes)).toBe("forged");
    const changed = new TextDecoder().decode(bytes).replace("/work", "/    ");
    expect(decodeRecord(auth, "ses_a", new TextEncoder().encode(changed))).toBe("forged");
    expect(decodeRecord(auth, "ses_a", encodeRecord(undefined, record))).toBe("forged");
    expect(decodeRecord(new MessageAuth(Buffer.alloc(32, 8)), "ses_a", bytes)).toBe("forged");
  });

  it("seals commands to their subject, once, and answers to their nonce", () => {
    const seal = new CommandSeal(new MessageAuth(Buffer.alloc(32, 7)));
    const sent = seal.seal("p.nodes.a.commands", { op: "stop", sessionId: "ses_a" });
    expect(seal.open("p.nodes.b.commands", sent.data)).toMatchObject({ ok: false });
    expect(seal.open("p.nodes.a.commands", sent.data)).toMatchObject({ ok: true, body: { op: "stop" } });
    expect(seal.open("p.nodes.a.commands", sent.data)).toEqual({
      ok: false,
      reason: expect.stringMatching(/replay/),
    });
    const other = new CommandSeal(new MessageAuth(Buffer.alloc(32, 8)));
    expect(other.open("p.nodes.a.commands", seal.seal("p.nodes.a.commands", {}).data)).toMatchObject({
      ok: false,
    });
    const reply = seal.sealReply(sent.nonce, { ok: true });
    expect(seal.openReply(sent.nonce, reply)).toEqual({ ok: true });
    expect(seal.openReply("another", reply)).toBeUndefined();
  });
});
