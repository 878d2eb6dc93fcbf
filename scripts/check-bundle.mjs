// Initial JavaScript of every public page, as an anonymous visitor loads it, gzip-compressed
// as served. A page whose route opts out of hydration (its client module exports handle.hydrate ===
// false, app/lib/hydration.ts) loads only the enhancement script and its static imports
// (build/enhance-manifest.json), plus the chunks it loads at once on that page (LOADED_AT_ONCE); a
// hydrated page also loads, from the route manifest, the entry, the manifest itself and the root +
// page route modules with their static imports (deduplicated).
// Prints a table; fails above the budget. Needs a production build. Usage: npm run check:bundle
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

const CLIENT = "build/client";
const BUDGET_KB = Number(process.env.BUNDLE_BUDGET_KB ?? 100);
/** Public pages by route id (app/routes.ts); the category and post pages stand for every category and post. */
const PUBLIC_ROUTES = {
  "/": "routes/home",
  "/search": "routes/search",
  "/subscribe": "routes/subscriptions/subscribe",
  "an unknown page (404)": "routes/not-found",
  "/about": "routes/about",
  "/recent-roles": "routes/recent-positions",
  "/projects": "routes/projects",
  "/testimonials": "routes/testimonials",
  "/contact": "routes/contact",
  "/7fs/:category": "routes/blog/category",
  "/7fs/:category/:slug": "routes/blog/post",
};

const manifestFile = fs.readdirSync(path.join(CLIENT, "assets")).find((name) => /^manifest-[\w-]+\.js$/.test(name));
if (!manifestFile) {
  console.error("No build manifest: run `npm run build` first.");
  process.exit(1);
}
const manifestSource = fs.readFileSync(path.join(CLIENT, "assets", manifestFile), "utf8");
const manifest = JSON.parse(manifestSource.replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, ""));

const ENHANCE_MANIFEST = "build/enhance-manifest.json";
if (!fs.existsSync(ENHANCE_MANIFEST)) {
  console.error(`No ${ENHANCE_MANIFEST}: run \`npm run build\` first.`);
  process.exit(1);
}
const enhance = JSON.parse(fs.readFileSync(ENHANCE_MANIFEST, "utf8"));
const enhanceFiles = [enhance.entry, ...enhance.imports];
/**
 * What the enhancement script loads as soon as a page without React holds the part that needs it
 * (its chunks by name, build/enhance-manifest.json `lazy`): the contact form's behaviour and its
 * verification widget, shown at once on /contact (elsewhere the widget loads once a form is used).
 * Printed apart, not counted: what loads once the visitor turns to the form (the schema, with zod).
 */
const LOADED_AT_ONCE = { "/contact": ["contact-form-behavior", "altcha"] };
const LOADED_ON_USE = { "/contact": ["contact-schema"] };

/** Whether the route's client module keeps React off the page (its `handle`, read from the built module). */
async function hydrates(route) {
  const module = await import(pathToFileURL(path.join(CLIENT, route.module)).href);
  return module.handle?.hydrate !== false;
}

const gzipSize = new Map();
function sizeOf(file) {
  if (!gzipSize.has(file)) gzipSize.set(file, zlib.gzipSync(fs.readFileSync(path.join(CLIENT, file)), { level: 9 }).length);
  return gzipSize.get(file);
}

let failed = false;
console.log(`${"page".padEnd(24)}${"React".padStart(6)}${"files".padStart(6)}${"KB gzip".padStart(10)}  (budget ${BUDGET_KB} KB)`);
for (const [page, id] of Object.entries(PUBLIC_ROUTES)) {
  const route = manifest.routes[id];
  if (!route) {
    console.error(`${page}: route ${id} is not in the build manifest`);
    failed = true;
    continue;
  }
  const react = await hydrates(route);
  const files = new Set(enhanceFiles);
  const lazyFiles = (names, into) => {
    for (const name of react ? [] : (names ?? [])) {
      const chunk = enhance.lazy?.[name];
      if (!chunk) {
        console.error(`${page}: the enhancement script has no chunk ${name}`);
        failed = true;
        continue;
      }
      for (const file of chunk) into.add(file);
    }
  };
  lazyFiles(LOADED_AT_ONCE[page], files);
  const onUse = new Set();
  lazyFiles(LOADED_ON_USE[page], onUse);
  for (const file of files) onUse.delete(file);
  const onUseKb = [...onUse].reduce((sum, file) => sum + sizeOf(file), 0) / 1024;
  if (react) {
    for (const file of [`/assets/${manifestFile}`, manifest.entry.module, ...manifest.entry.imports]) files.add(file);
    for (const r of [manifest.routes.root, route]) for (const file of [r.module, ...(r.imports ?? [])]) files.add(file);
  }
  const kb = [...files].reduce((sum, file) => sum + sizeOf(file), 0) / 1024;
  const over = kb > BUDGET_KB;
  failed ||= over;
  console.log(
    `${page.padEnd(24)}${(react ? "yes" : "no").padStart(6)}${String(files.size).padStart(6)}${kb.toFixed(1).padStart(10)}${over ? "  over budget" : ""}${onUse.size ? `  (+${onUseKb.toFixed(1)} KB once the form is used)` : ""}`,
  );
}
if (failed) {
  console.error(
    `\nA public page's initial JavaScript is over ${BUDGET_KB} KB gzip (or missing): load editors, admin, the verification widget and toasts only where used.`,
  );
  process.exit(1);
}
