// After `react-router build`: bundles the enhancement script (app/enhance/main.ts) apart
// from React into build/client/assets/enhance-<hash>.js (+ a chunk per dynamic import: the ALTCHA
// widget, the contact form's behaviour), and writes build/enhance-manifest.json, which the server reads to name it in every page
// (app/server/enhance-script.server.ts) and check:bundle to measure it.
import fs from "node:fs";
import { build } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

const MANIFEST = "build/enhance-manifest.json";

const output = await build({
  configFile: false,
  logLevel: "warn",
  publicDir: false,
  plugins: [tsconfigPaths()],
  build: {
    outDir: "build/client",
    emptyOutDir: false,
    // Its dynamic imports (the widget, the contact form) need no preload helper.
    modulePreload: false,
    rollupOptions: {
      input: { enhance: "app/enhance/main.ts" },
      output: { format: "es", entryFileNames: "assets/enhance-[hash].js", chunkFileNames: "assets/enhance-[name]-[hash].js" },
    },
  },
});
const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => ("output" in result ? result.output : []));
const entry = chunks.find((chunk) => chunk.type === "chunk" && chunk.isEntry);
if (!entry || entry.type !== "chunk") throw new Error("the enhancement script was not built");
// The chunks it loads on demand (the contact form's behaviour, the widget), by name, each with its
// static imports: check:bundle adds those a page loads at once to that page's figure.
const lazy = Object.fromEntries(
  chunks
    .filter((chunk) => chunk.type === "chunk" && chunk.isDynamicEntry)
    .map((chunk) => [chunk.name, [chunk.fileName, ...chunk.imports].filter((file) => file !== entry.fileName).map((file) => `/${file}`)]),
);
fs.writeFileSync(
  MANIFEST,
  JSON.stringify({ entry: `/${entry.fileName}`, imports: entry.imports.map((file) => `/${file}`), lazy }, null, 2),
);
console.log(`enhancement script: /${entry.fileName} (+ ${entry.imports.length} static imports, ${entry.dynamicImports.length} dynamic)`);
