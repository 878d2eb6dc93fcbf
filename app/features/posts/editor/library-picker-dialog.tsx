import { Images } from "lucide-react";
import { useId, useRef, useState } from "react";
import { z } from "zod";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/utils";

const imageSchema = z.object({
  id: z.string(),
  url: z.string(),
  name: z.string().nullable(),
  alt: z.string(),
  width: z.number(),
  height: z.number(),
});
const answerSchema = z.object({ images: z.array(imageSchema) });
const errorSchema = z.object({ error: z.string() });

/** An image chosen in the library, with the alt text it goes in with. */
export interface PickedImage {
  id: string;
  url: string;
  alt: string;
}

type ListState = { kind: "loading" } | { kind: "ready"; images: z.infer<typeof imageSchema>[] } | { kind: "error"; message: string };

async function fetchImages(q: string): Promise<ListState> {
  try {
    const response = await fetch(`/api/media?${new URLSearchParams(q ? { q } : {}).toString()}`, {
      headers: { Accept: "application/json" },
    });
    const json: unknown = await response.json().catch(() => null);
    const parsed = answerSchema.safeParse(json);
    if (response.ok && parsed.success) return { kind: "ready", images: parsed.data.images };
    const error = errorSchema.safeParse(json);
    return { kind: "error", message: error.success ? error.data.error : `The server answered ${response.status}.` };
  } catch {
    return { kind: "error", message: "The library could not be loaded. Check your connection and try again." };
  }
}

interface Props {
  /** The trigger: the toolbar's icon button, or a labelled button beside an image field. */
  trigger: "icon" | "button";
  /** Called when the dialog opens, while the textarea still has its cursor. */
  onOpen?: () => void;
  /** Inserts the image's Markdown at the cursor; absent where only a featured image is picked. */
  onInsert?: (image: PickedImage) => void;
  onSetFeatured?: (image: PickedImage) => void;
}

/**
 * "Pick from library": the newest uploaded images (or those a search finds by name or alt text), read
 * from /api/media when the dialog opens. Choosing one fills in the alt text kept with it in the
 * library; the author may change it before inserting the image or making it the featured image.
 * Radix's dialog labels itself by its title, traps focus and closes on Esc; the images are radio
 * buttons, so arrow keys move between them.
 */
export function LibraryPickerDialog({ trigger, onOpen, onInsert, onSetFeatured }: Props) {
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState("");
  const [list, setList] = useState<ListState>({ kind: "loading" });
  const [chosen, setChosen] = useState<string | null>(null);
  const [alt, setAlt] = useState("");
  const request = useRef(0);

  async function load(search: string) {
    const n = ++request.current;
    setList({ kind: "loading" });
    const next = await fetchImages(search.trim());
    // Only the latest search's answer is shown.
    if (n === request.current) setList(next);
  }

  function onOpenChange(next: boolean) {
    if (next) {
      onOpen?.();
      setQ("");
      setChosen(null);
      setAlt("");
      void load("");
    }
    setOpen(next);
  }

  const images = list.kind === "ready" ? list.images : [];
  const picked = images.find((img) => img.id === chosen) ?? null;

  function choose(id: string) {
    setChosen(id);
    setAlt(images.find((img) => img.id === id)?.alt ?? "");
  }

  function finish(action: (image: PickedImage) => void) {
    if (!picked) return;
    action({ id: picked.id, url: picked.url, alt: alt.trim() });
    setOpen(false);
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        {trigger === "icon" ? (
          <Button type="button" size="icon" variant="ghost" aria-label="Pick from library" title="Pick from library">
            <Images aria-hidden />
          </Button>
        ) : (
          <Button type="button" variant="outline">
            Choose from library
          </Button>
        )}
      </DialogTrigger>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Pick from library</DialogTitle>
          <DialogDescription>
            {onInsert
              ? "Choose an uploaded image to insert at the cursor or to make the featured image."
              : "Choose an uploaded image to make the featured image."}
          </DialogDescription>
        </DialogHeader>
        {/* Not a <form>: the dialog is rendered inside the post form's React tree, and a submit would reach it. */}
        <div role="search" aria-label="Find images" className="flex items-end gap-2">
          <div className="grid flex-1 gap-1.5">
            <Label htmlFor={`${ids}-q`}>Search by name or alt text</Label>
            <Input
              id={`${ids}-q`}
              type="search"
              value={q}
              maxLength={200}
              onChange={(e) => setQ(e.target.value)}
              onKeyDown={(e) => {
                if (e.key !== "Enter") return;
                e.preventDefault();
                void load(q);
              }}
            />
          </div>
          <Button type="button" variant="outline" onClick={() => void load(q)}>
            Search
          </Button>
        </div>
        {list.kind === "loading" ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading images...
          </p>
        ) : list.kind === "error" ? (
          <p role="alert" className="text-sm text-destructive">
            {list.message}
          </p>
        ) : images.length === 0 ? (
          <p role="status" className="text-sm text-muted-foreground">
            No images found.
          </p>
        ) : (
          <fieldset className="min-w-0">
            <legend className="sr-only">Images</legend>
            <ul className="grid max-h-[45vh] grid-cols-2 gap-3 overflow-y-auto p-1 sm:grid-cols-4">
              {images.map((img) => {
                const name = img.name ?? "Untitled upload";
                return (
                  <li key={img.id} className="min-w-0">
                    <label
                      className={cn(
                        "block cursor-pointer rounded-md border-2 p-1 text-xs has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50",
                        chosen === img.id ? "border-primary" : "border-transparent",
                      )}
                    >
                      <input
                        type="radio"
                        name={`${ids}-image`}
                        value={img.id}
                        checked={chosen === img.id}
                        onChange={() => choose(img.id)}
                        className="sr-only"
                      />
                      {/* The name below says which file it is; its alt text is the field under the list. */}
                      <img
                        src={img.url}
                        alt=""
                        loading="lazy"
                        width={img.width}
                        height={img.height}
                        className="aspect-square w-full rounded object-cover"
                      />
                      <span className="mt-1 block truncate" title={name}>
                        {name}
                      </span>
                    </label>
                  </li>
                );
              })}
            </ul>
          </fieldset>
        )}
        <div className="grid gap-1.5">
          <Label htmlFor={`${ids}-alt`}>Alt text</Label>
          <Input id={`${ids}-alt`} type="text" value={alt} disabled={!picked} onChange={(e) => setAlt(e.target.value)} />
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          {onSetFeatured ? (
            <Button type="button" variant={onInsert ? "outline" : "default"} disabled={!picked} onClick={() => finish(onSetFeatured)}>
              Set as featured image
            </Button>
          ) : null}
          {onInsert ? (
            <Button type="button" disabled={!picked} onClick={() => finish(onInsert)}>
              Insert image
            </Button>
          ) : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
