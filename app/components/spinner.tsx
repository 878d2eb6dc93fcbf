import { Loader2 } from "lucide-react";
import { cn } from "~/lib/utils";

export function Spinner({ label, className }: { label: string; className?: string }) {
  return (
    <div role="status" className={cn("flex items-center justify-center gap-2 py-8 text-muted-foreground", className)}>
      <Loader2 aria-hidden className="size-6 animate-spin" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
