import type { InlineAttachment as Attachment } from "../command-surface.js";

/** The server's per-attachment limit (its turns route takes that much more body per attachment). */
const MAX_BYTES = 10 * 1024 * 1024;
/** The images a turn takes inline (DESIGN.md §11); any other file goes by path, which a browser has none of. */
const INLINE_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** An image file as a turn attachment, its bytes in base64; anything else is refused with the reason. */
export async function readAttachment(file: File): Promise<Attachment> {
  const name = file.name || "pasted";
  if (!INLINE_IMAGE_TYPES.has(file.type))
    throw new Error(`${name}: only png, jpeg, gif and webp images can be attached from the page`);
  if (file.size > MAX_BYTES) throw new Error(`${name} is larger than 10 MiB`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { type: "image", mediaType: file.type, data: btoa(binary), name };
}

/** The attach control: a file picker, and the list of what is attached, each removable. */
export function AttachmentPicker({
  attached,
  onAdd,
  onRemove,
  disabled,
}: {
  attached: Attachment[];
  onAdd: (files: File[]) => void;
  onRemove: (index: number) => void;
  disabled: boolean;
}) {
  return (
    <div class="attachments">
      <label class="attach-button">
        Attach
        <input
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          multiple
          disabled={disabled}
          onChange={(e) => {
            const input = e.target as HTMLInputElement;
            onAdd([...(input.files ?? [])]);
            input.value = "";
          }}
        />
      </label>
      {attached.map((a, i) => (
        <span key={i} class="badge attached" data-attachment-type={a.type}>
          {a.name} ({a.mediaType})
          <button type="button" class="link" aria-label={`Remove ${a.name}`} onClick={() => onRemove(i)}>
            ×
          </button>
        </span>
      ))}
    </div>
  );
}
