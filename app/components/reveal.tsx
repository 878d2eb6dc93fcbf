import { useEffect, useRef } from "react";
import { cn } from "~/lib/utils";
import { REVEAL_CLASS, revealOnScroll } from "./reveal-behavior";

/**
 * A section that fades in when scrolled into view (reveal-behavior.ts). The server renders it fully
 * visible, so content never depends on JavaScript.
 */
export function Reveal({ className, children, ...props }: React.ComponentProps<"section">) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => (ref.current ? revealOnScroll(ref.current) : undefined), []);
  return (
    <section ref={ref} className={cn(REVEAL_CLASS, className)} {...props}>
      {children}
    </section>
  );
}
