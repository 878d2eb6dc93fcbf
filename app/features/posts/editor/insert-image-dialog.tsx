import { ImagePlus } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

interface Props {
  /** Called when the dialog opens, while the textarea still has its cursor. */
  onOpen: () => void;
  /** Uploads the file and inserts `![alt](url)`; resolves when done. */
  onInsert: (file: File, alt: string) => Promise<void>;
}

/** The toolbar's 'Insert image': asks for the image and its alt text, then inserts both. */
export function InsertImageDialog({ onOpen, onInsert }: Props) {
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState("");
  const [busy, setBusy] = useState(false);

  function onOpenChange(next: boolean) {
    if (busy) return;
    if (next) onOpen();
    setOpen(next);
    setFile(null);
    setAlt("");
  }

  async function insert() {
    if (!file) return;
    setBusy(true);
    try {
      await onInsert(file, alt.trim());
    } finally {
      setBusy(false);
      setOpen(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button type="button" size="icon" variant="ghost" aria-label="Insert image" title="Insert image">
          <ImagePlus aria-hidden />
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Insert image</DialogTitle>
          <DialogDescription>
            The alt text describes the image to people who cannot see it; a post needs it to be published.
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-2">
          <Label htmlFor={`${ids}-file`}>Image file</Label>
          <Input
            id={`${ids}-file`}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${ids}-alt`}>Alt text</Label>
          <Input id={`${ids}-alt`} type="text" value={alt} onChange={(e) => setAlt(e.target.value)} />
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" disabled={busy} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="button" disabled={!file || busy} onClick={() => void insert()}>
            {busy ? "Uploading..." : "Insert"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
