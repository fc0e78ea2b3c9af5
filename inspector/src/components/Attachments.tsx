import type { Attachment } from "../command-surface.js";

/** Larger files are refused here: the server's body limit is 1 MiB and base64 grows a file by a third. */
const MAX_BYTES = 700 * 1024;

/** A file as a turn attachment: base64 data, its media type; an image is an `image`, anything else a `file`. */
export async function readAttachment(file: File): Promise<Attachment> {
  if (file.size > MAX_BYTES) throw new Error(`${file.name} is larger than ${MAX_BYTES / 1024} KiB`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const mediaType = file.type || "application/octet-stream";
  return {
    type: mediaType.startsWith("image/") ? "image" : "file",
    mediaType,
    data: btoa(binary),
    name: file.name || "pasted",
  };
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
