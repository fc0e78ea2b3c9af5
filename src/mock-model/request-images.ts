/**
 * The image parts of a logged model request, in either API: OpenAI Responses `input_image` parts, Anthropic
 * Messages `image` blocks (with their `source`). What a test reads off `MockRequestRecord.body` to prove that an
 * attachment reached the model as an image, not as text.
 */
export type ImagePart = Record<string, unknown>;

export function requestImageParts(body: unknown): ImagePart[] {
  const parts: ImagePart[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 64) return;
    if (Array.isArray(value)) {
      for (const entry of value) visit(entry, depth + 1);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const record = value as Record<string, unknown>;
    const anthropicImage = record.type === "image" && typeof record.source === "object";
    if (record.type === "input_image" || anthropicImage) parts.push(record);
    for (const entry of Object.values(record)) visit(entry, depth + 1);
  };
  visit(body, 0);
  return parts;
}

/** The base64 bytes of an image part (an OpenAI data URL's payload, an Anthropic base64 source's data). */
export function imagePartData(part: ImagePart): string | undefined {
  const url = part.image_url;
  if (typeof url === "string") return /^data:[^;]+;base64,(.*)$/s.exec(url)?.[1];
  const source = part.source as { type?: unknown; data?: unknown } | undefined;
  return source?.type === "base64" && typeof source.data === "string" ? source.data : undefined;
}
