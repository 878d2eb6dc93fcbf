import { useEffect, useRef } from "react";
import { cn } from "~/lib/utils";

/**
 * A section that fades in when scrolled into view. The server renders it fully visible; only in a
 * browser with IntersectionObserver, without prefers-reduced-motion, and only while it is still below
 * the fold, is it hidden until it scrolls in — so content never depends on JavaScript.
 */
export function Reveal({ className, children, ...props }: React.ComponentProps<"section">) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    if (element.getBoundingClientRect().top < window.innerHeight) return;
    element.dataset.reveal = "hidden";
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          element.dataset.reveal = "shown";
          observer.disconnect();
        }
      },
      { rootMargin: "0px 0px -10% 0px" },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      element.dataset.reveal = "shown";
    };
  }, []);
  return (
    <section ref={ref} className={cn("reveal", className)} {...props}>
      {children}
    </section>
  );
}
