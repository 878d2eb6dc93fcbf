import { Bold, Code, Heading, Italic, Link2, List, ListOrdered, Quote } from "lucide-react";
import { Tabs } from "radix-ui";
import { useLayoutEffect, useRef, useState, type ComponentProps } from "react";
import { Button } from "~/components/ui/button";
import { Textarea } from "~/components/ui/textarea";
import { cn } from "~/lib/utils";
import { PostBody } from "../read/post-body";
import { applyFormat, insertImage, shortcutAction, TOOLBAR_ACTIONS, type FormatAction, type TextState } from "./markdown-edits";
import { imageFilesOf, uploadImageFiles } from "./upload-images";
import { InsertImageDialog } from "./insert-image-dialog";
import { LibraryPickerDialog, type PickedImage } from "~/components/library-picker-dialog";

const ICONS: Record<FormatAction, typeof Bold> = {
  bold: Bold,
  italic: Italic,
  heading: Heading,
  link: Link2,
  bulleted: List,
  numbered: ListOrdered,
  quote: Quote,
  code: Code,
};

type PreviewState =
  { kind: "idle" } | { kind: "loading" } | { kind: "ready"; html: string; source: string } | { kind: "error"; message: string };

async function fetchPreview(content: string): Promise<PreviewState> {
  try {
    const response = await fetch("/api/posts/preview", { method: "POST", body: new URLSearchParams({ content }) });
    const json: unknown = await response.json().catch(() => null);
    if (response.ok && json && typeof json === "object" && "html" in json && typeof json.html === "string")
      return { kind: "ready", html: json.html, source: content };
    const error =
      json && typeof json === "object" && "error" in json && typeof json.error === "string"
        ? json.error
        : `The server answered ${response.status}.`;
    return { kind: "error", message: error };
  } catch {
    return { kind: "error", message: "The preview could not be loaded. Check your connection and try again." };
  }
}

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** The control's id, name and aria attributes from the form layer. */
  textareaProps: ComponentProps<"textarea">;
  /** Busy while an image is uploading (the form's submit waits for it). */
  onUploadingChange: (uploading: boolean) => void;
  /** "Pick from library" → "Set as featured image" (absent where there is no featured image, e.g. a page). */
  onSetFeatured?: (image: PickedImage) => void;
}

/**
 * 'Content' with a Markdown toolbar, shortcuts, image paste/drop/insert and Write/Preview tabs. The
 * textarea stays in the form in both tabs, so the form still posts without JavaScript.
 */
export function ContentEditor({ value, onChange, textareaProps, onUploadingChange, onSetFeatured }: Props) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  // Where 'Insert image' puts the image: the cursor when its dialog opened.
  const insertAt = useRef<TextState | null>(null);
  const pendingSelection = useRef<{ start: number; end: number } | null>(null);
  const [tab, setTab] = useState("write");
  const [preview, setPreview] = useState<PreviewState>({ kind: "idle" });

  // After an edit from the toolbar, the cursor goes where the edit says once React has written the text.
  useLayoutEffect(() => {
    const el = textarea.current;
    const selection = pendingSelection.current;
    if (!el || !selection) return;
    pendingSelection.current = null;
    el.focus();
    el.setSelectionRange(selection.start, selection.end);
  }, [value]);

  function current(): TextState {
    const el = textarea.current;
    return { value, start: el?.selectionStart ?? value.length, end: el?.selectionEnd ?? value.length };
  }

  function commit(next: TextState) {
    pendingSelection.current = { start: next.start, end: next.end };
    onChange(next.value);
  }

  function format(action: FormatAction) {
    commit(applyFormat(current(), action));
  }

  async function uploadAndInsert(files: File[], alt = "", cursor?: TextState) {
    if (files.length === 0) return;
    // The cursor as it was when the author chose the files: the text may not change meanwhile.
    const at = cursor && cursor.value === value ? cursor : current();
    onUploadingChange(true);
    try {
      const uploaded = await uploadImageFiles(files, alt);
      if (!uploaded) return;
      let state = at;
      for (const image of uploaded) state = insertImage(state, { url: image.url, alt });
      commit(state);
    } finally {
      onUploadingChange(false);
    }
  }

  async function onTabChange(next: string) {
    setTab(next);
    if (next !== "preview") return;
    if (preview.kind === "ready" && preview.source === value) return;
    setPreview({ kind: "loading" });
    setPreview(await fetchPreview(value));
  }

  return (
    <Tabs.Root value={tab} onValueChange={(next) => void onTabChange(next)} className="grid min-w-0 gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Tabs.List aria-label="Editor mode" className="inline-flex rounded-md border p-0.5">
          {["Write", "Preview"].map((label) => (
            <Tabs.Trigger
              key={label}
              value={label.toLowerCase()}
              className="rounded px-3 py-1 text-sm font-medium text-muted-foreground data-[state=active]:bg-muted data-[state=active]:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            >
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <div
          role="toolbar"
          aria-label="Formatting"
          data-focus-hidden
          aria-controls={textareaProps.id}
          className={cn("flex flex-wrap gap-0.5", tab !== "write" && "invisible")}
        >
          {TOOLBAR_ACTIONS.map(({ action, label }) => {
            const Icon = ICONS[action];
            return (
              <Button
                key={action}
                type="button"
                size="icon"
                variant="ghost"
                aria-label={label}
                title={label}
                onClick={() => format(action)}
              >
                <Icon aria-hidden />
              </Button>
            );
          })}
          <InsertImageDialog
            onOpen={() => {
              insertAt.current = current();
            }}
            onInsert={(file, alt) => uploadAndInsert([file], alt, insertAt.current ?? undefined)}
          />
          <LibraryPickerDialog
            trigger="icon"
            onOpen={() => {
              insertAt.current = current();
            }}
            onInsert={(image) => {
              const at = insertAt.current && insertAt.current.value === value ? insertAt.current : current();
              commit(insertImage(at, image));
            }}
            onSetFeatured={onSetFeatured}
          />
        </div>
      </div>
      {/* min-w-0: a grid item is as wide as its content by default, and a long unbroken line would widen the
          textarea (field-sizing: content) and with it the whole page. */}
      <Tabs.Content value="write" forceMount hidden={tab !== "write"} className="min-w-0">
        <Textarea
          {...textareaProps}
          ref={textarea}
          rows={12}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            const action = shortcutAction(e);
            if (!action) return;
            e.preventDefault();
            format(action);
          }}
          onPaste={(e) => {
            const files = imageFilesOf(e.clipboardData);
            if (files.length === 0) return;
            e.preventDefault();
            void uploadAndInsert(files);
          }}
          onDragOver={(e) => {
            // Without this the browser would open a dropped image file instead of handing it to us.
            if (e.dataTransfer.types.includes("Files")) e.preventDefault();
          }}
          onDrop={(e) => {
            const files = imageFilesOf(e.dataTransfer);
            if (files.length === 0) return;
            e.preventDefault();
            void uploadAndInsert(files);
          }}
          // 12 rows before anything is typed; it then grows with the text up to most of the screen and
          // scrolls inside, so typing never pushes the rest of the page around.
          className="max-h-[75vh] min-h-[calc(12lh+1rem)] overflow-y-auto font-mono"
        />
      </Tabs.Content>
      <Tabs.Content
        value="preview"
        className="min-w-0 min-h-[calc(12lh+1rem)] rounded-md border p-4"
        aria-busy={preview.kind === "loading"}
      >
        {preview.kind === "loading" || preview.kind === "idle" ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading preview...
          </p>
        ) : preview.kind === "error" ? (
          <p role="alert" className="text-sm text-destructive">
            {preview.message}
          </p>
        ) : preview.html ? (
          <PostBody html={preview.html} />
        ) : (
          <p className="text-sm text-muted-foreground">Nothing to preview yet.</p>
        )}
      </Tabs.Content>
    </Tabs.Root>
  );
}
