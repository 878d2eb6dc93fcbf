import { z } from "zod";

// Zod probes for eval (new Function) when a schema is created, to compile fast parsers. The
// Content-Security-Policy forbids eval and the browser reports even a caught probe as a violation,
// so in the browser zod runs without it. Imported first by app/root.tsx, before any schema module.
if (typeof document !== "undefined") z.config({ jitless: true });
