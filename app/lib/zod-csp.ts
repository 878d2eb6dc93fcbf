// Zod probes for eval (new Function) when a schema is created, to compile fast parsers. The
// Content-Security-Policy forbids eval and the browser reports even a caught probe as a violation,
// so in the browser zod runs without it. Imported first by app/root.tsx, before any schema module.
//
// Set through the global object zod 4 keeps its configuration in (what `z.config()` writes), so
// that this module does not bring zod into every page's initial JavaScript: zod loads only with
// the forms that use it. app/lib/zod-csp.test.ts checks that zod reads it.
declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

if (typeof document !== "undefined") (globalThis.__zod_globalConfig ??= {}).jitless = true;

export {};
