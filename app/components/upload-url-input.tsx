import { useId, useState } from "react";
import { LibraryPickerDialog } from "~/components/library-picker-dialog";
import { toast } from "~/components/toaster";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

/** What each kind of file is sent to and how the answer names its address. */
const UPLOADS = {
  image: {
    endpoint: "/api/uploads",
    field: "files",
    accept: "image/*",
    failed: "The image could not be uploaded.",
    done: "Image uploaded",
  },
  pdf: {
    endpoint: "/api/uploads/resume",
    field: "file",
    accept: "application/pdf,.pdf",
    failed: "The file could not be uploaded.",
    done: "File uploaded",
  },
} as const;
type UploadKind = keyof typeof UPLOADS;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The uploaded file's address from the answer: `{ images: [{ url }] }` for images, `{ url }` for a document. */
function urlOf(json: unknown): string | null {
  if (!isRecord(json)) return null;
  const first: unknown = Array.isArray(json.images) ? json.images[0] : json;
  return isRecord(first) && typeof first.url === "string" ? first.url : null;
}

async function upload(kind: UploadKind, file: File): Promise<{ url: string } | { error: string }> {
  const { endpoint, field, failed } = UPLOADS[kind];
  const body = new FormData();
  body.append(field, file);
  const response = await fetch(endpoint, { method: "POST", body });
  const json: unknown = await response.json().catch(() => null);
  const url = response.ok ? urlOf(json) : null;
  if (url) return { url };
  return { error: isRecord(json) && typeof json.error === "string" ? json.error : failed };
}

/**
 * An address field with an upload button beside it: the file goes through the upload pipeline
 * (/api/uploads for images: checked, resized into responsive variants; /api/uploads/resume for the
 * resume PDF) and its address fills the field. An image field can also take an image already in the
 * media library ("Choose from library"). Without JavaScript the address can be typed.
 */
export function UploadUrlInput({
  label,
  kind = "image",
  hint = "Save to use it.",
  preview = kind === "image",
  ...props
}: React.ComponentProps<typeof Input> & { label: string; kind?: UploadKind; hint?: string; preview?: boolean }) {
  const [value, setValue] = useState(typeof props.defaultValue === "string" ? props.defaultValue : "");
  const [busy, setBusy] = useState(false);
  const fileId = useId();
  const { defaultValue: _ignored, ...inputProps } = props;
  const { accept, done } = UPLOADS[kind];
  return (
    <div className="grid gap-2">
      <Input {...inputProps} value={value} onChange={(event) => setValue(event.target.value)} placeholder="/uploads/… or https://…" />
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Label htmlFor={fileId} className="cursor-pointer rounded-md border px-3 py-1.5 font-normal hover:bg-accent">
          {busy ? "Uploading..." : `Upload ${label.charAt(0).toLowerCase()}${label.slice(1)}`}
        </Label>
        <input
          id={fileId}
          type="file"
          accept={accept}
          className="sr-only"
          disabled={busy}
          onChange={async (event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (!file) return;
            setBusy(true);
            const result = await upload(kind, file).finally(() => setBusy(false));
            if ("url" in result) {
              setValue(result.url);
              toast.success(done, { description: hint });
            } else toast.error("Upload failed", { description: result.error });
          }}
        />
        {kind === "image" ? (
          <LibraryPickerDialog
            trigger="button"
            triggerLabel={`Choose ${label.charAt(0).toLowerCase()}${label.slice(1)} from library`}
            onUse={(image) => {
              setValue(image.url);
              toast.success("Image chosen", { description: hint });
            }}
          />
        ) : null}
        {preview && value ? <img src={value} alt="" className="h-12 w-10 rounded object-cover" /> : null}
      </div>
    </div>
  );
}
