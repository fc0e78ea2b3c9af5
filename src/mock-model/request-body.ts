import type { IncomingMessage } from "node:http";
import type { Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

export type BodyResult =
  | { kind: "ok"; text: string }
  | { kind: "too-large" }
  | { kind: "unsupported-encoding" }
  | { kind: "bad-encoding"; message: string };

/**
 * A request body, decoded by its content-encoding as it streams in, refused as soon as either the bytes on the
 * wire or the decoded bytes pass `maxBytes`: a small compressed body that would inflate to gigabytes (a
 * decompression bomb) stops at the cap, holding no more than the cap. On "too-large" the request is left unread
 * (the caller answers 413 and closes the connection).
 */
export function readRequestBody(request: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const decoder = decoderFor(request.headers["content-encoding"]);
  if (decoder === "unsupported") {
    request.resume();
    return Promise.resolve({ kind: "unsupported-encoding" });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let wireBytes = 0;
    let decodedBytes = 0;
    let settled = false;
    const settle = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const refuse = () => {
      chunks.length = 0;
      request.unpipe();
      request.pause();
      decoder?.destroy();
      settle({ kind: "too-large" });
    };
    const onDecoded = (chunk: Buffer) => {
      if (settled) return;
      decodedBytes += chunk.length;
      if (decodedBytes > maxBytes) return refuse();
      chunks.push(chunk);
    };
    const done = () => settle({ kind: "ok", text: Buffer.concat(chunks).toString("utf8") });
    request.on("data", (chunk: Buffer) => {
      wireBytes += chunk.length;
      if (wireBytes > maxBytes && !settled) refuse();
    });
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    request.once("error", fail);
    // a client that goes away mid-body: nothing more will come
    request.once("close", () => {
      if (!request.complete) fail(new Error("the client closed the request before its body ended"));
    });
    if (decoder === undefined) {
      request.on("data", onDecoded);
      request.once("end", done);
      return;
    }
    decoder.on("data", onDecoded);
    decoder.once("end", done);
    decoder.once("error", (error: Error) => settle({ kind: "bad-encoding", message: error.message }));
    request.pipe(decoder);
  });
}

/** The decoder of a content-encoding; undefined for none, "unsupported" for one the mock does not read. */
function decoderFor(encoding: string | undefined): Transform | undefined | "unsupported" {
  switch (encoding?.trim().toLowerCase()) {
    case undefined:
    case "":
    case "identity":
      return undefined;
    case "gzip":
      return createGunzip();
    case "deflate":
      return createInflate();
    case "br":
      return createBrotliDecompress();
    default:
      return "unsupported";
  }
}
