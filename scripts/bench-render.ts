// Render benchmark: server time to render a generated 5,000-word post with 10 code blocks and
// 20 uploaded images: the process's very first render (highlighter start + grammar compilation),
// first renders of new content once warm (what a save costs), and cached renders (the preview path).
// Prints figures; asserts nothing. Usage: npm run bench:render [-- --iterations 30]
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { warmUpHighlighter } from "~/features/posts/content/code-highlight.server";
import { clearMarkdownCache, renderMarkdown, renderMarkdownCached, type KnownImage } from "~/features/posts/content/markdown.server";
import { readingTimeLabel } from "~/lib/reading-time";

const iterArg = process.argv.indexOf("--iterations");
const ITERATIONS = iterArg > 0 ? Number(process.argv[iterArg + 1]) : 30;
const CACHED_ITERATIONS = 500;
const SITE = "https://site.example";
const WORDS = "product team budget family walk purpose lead serve habit week coffee review plan ship learn trust".split(" ");
const CODE: [string, string][] = [
  [
    "ts",
    "export async function load(id: string): Promise<Post | null> {\n  const row = await db.select().from(posts).where(eq(posts.id, id));\n  // the first match wins\n  return row[0] ?? null;\n}",
  ],
  ["js", "const total = items.reduce((sum, item) => sum + item.price * item.qty, 0);\nconsole.log(`Total: ${total.toFixed(2)}`);"],
  ["python", "def fib(n: int) -> int:\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a"],
  ["bash", '#!/usr/bin/env bash\nset -euo pipefail\nfor f in *.md; do\n  echo "$f"\ndone'],
  [
    "sql",
    "SELECT p.title, count(*) AS views\nFROM posts p JOIN views v ON v.post_id = p.id\nWHERE p.published\nGROUP BY p.title ORDER BY views DESC LIMIT 10;",
  ],
  ["json", '{\n  "name": "site",\n  "version": "1.0.0",\n  "private": true,\n  "scripts": { "start": "node server.js" }\n}'],
  ["css", ".card {\n  display: grid;\n  gap: 1rem;\n  color: var(--foreground);\n}"],
  ["yaml", "services:\n  app:\n    image: site:latest\n    ports: ['3000:3000']\n    environment:\n      PUBLIC_URL: https://example.com"],
  ["go", 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hello")\n}'],
  ["rust", 'fn main() {\n    let v: Vec<i32> = (1..=10).filter(|x| x % 2 == 0).collect();\n    println!("{:?}", v);\n}'],
];

function image(i: number): [string, KnownImage] {
  const stem = `/uploads/blog-images/u1/1700000000${String(i).padStart(3, "0")}-abcdef`;
  return [
    `${stem}.jpg`,
    { width: 2400, height: 1600, variants: [320, 640, 1024, 1600].map((w) => ({ width: w, url: `${stem}-${w}w.webp` })) },
  ];
}
const IMAGES = new Map(Array.from({ length: 20 }, (_, i) => image(i)));

function post(seed: number): string {
  const parts: string[] = [`# Benchmark post ${seed}`];
  let words = 0;
  let block = 0;
  while (words < 5000) {
    const n = 90;
    const sentence = Array.from({ length: n }, (_, i) => {
      const w = WORDS[(i * 7 + words + seed) % WORDS.length] ?? "word";
      return i % 23 === 0 ? `**${w}**` : i % 31 === 0 ? `[${w}](https://example.com/${w})` : w;
    }).join(" ");
    parts.push(sentence + ".");
    words += n;
    if (block < 20 && words > (block + 1) * 240) {
      const [src] = image(block);
      parts.push(`![Figure ${block}](${src})`);
      if (block < 10) {
        const [lang, code] = CODE[block] ?? ["ts", "x"];
        parts.push(`## Section ${block}\n\n\`\`\`${lang}\n${code}\n\`\`\``);
      }
      block += 1;
    }
  }
  return parts.join("\n\n");
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return `p50 ${at(0.5).toFixed(2)} ms · p95 ${at(0.95).toFixed(2)} ms · min ${(sorted[0] ?? NaN).toFixed(2)} ms · n=${sorted.length}`;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const sample = post(0);
const options = { siteUrl: SITE, images: IMAGES };
const coldStart = await time(() => renderMarkdown(sample, options));
const warm = await time(() => warmUpHighlighter({ compileGrammars: true }));
const first: number[] = [];
for (let i = 1; i <= ITERATIONS; i++) {
  const source = post(i);
  first.push(await time(() => renderMarkdown(source, options)));
}
clearMarkdownCache();
const miss = await time(() => renderMarkdownCached(sample, options));
const cached: number[] = [];
for (let i = 0; i < CACHED_ITERATIONS; i++) cached.push(await time(() => renderMarkdownCached(sample, options)));
const rendered = await renderMarkdown(sample, options);

console.log(
  `Machine: ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ")} (figures scale with load)`,
);
console.log(
  `Post: ${rendered.text.split(/\s+/).filter(Boolean).length} words of text (${readingTimeLabel(rendered.text)}), ${(rendered.html.match(/<pre/g) ?? []).length} code blocks, ${(rendered.html.match(/<img/g) ?? []).length} images, ${(sample.length / 1024).toFixed(1)} KiB Markdown → ${(rendered.html.length / 1024).toFixed(1)} KiB HTML`,
);
console.log(`Process's first render (highlighter start + grammar compile): ${coldStart.toFixed(1)} ms`);
console.log(`Warm-up compiling every grammar (one-off, at start): ${warm.toFixed(1)} ms`);
console.log(`First render of new content (a save), warm:  ${stats(first)}  (goal < 100 ms)`);
console.log(`Cached render (preview, LRU hit):             ${stats(cached)}  (goal < 5 ms; the miss took ${miss.toFixed(1)} ms)`);

// The browser's side: gzip size of the JS a route loads (its module and imports, plus the entry), read
// from React Router's client manifest. Run `npm run build` first; skipped without a build.
const { readdirSync, readFileSync } = await import("node:fs");
const { gzipSync } = await import("node:zlib");
const assets = new URL("../build/client/assets/", import.meta.url);
const manifestFile = (() => {
  try {
    return readdirSync(assets).find((f) => f.startsWith("manifest-") && f.endsWith(".js"));
  } catch {
    return undefined;
  }
})();
if (!manifestFile) {
  console.log("Route JS sizes: no build/client (run npm run build first)");
} else {
  const manifest: unknown = JSON.parse(
    readFileSync(new URL(manifestFile, assets), "utf8")
      .replace(/^window\.__reactRouterManifest=/, "")
      .replace(/;\s*$/, ""),
  );
  const routeOf = (id: string): { module: string; imports?: string[] } | undefined => {
    if (!manifest || typeof manifest !== "object" || !("routes" in manifest) || !manifest.routes || typeof manifest.routes !== "object")
      return undefined;
    const route: unknown = Reflect.get(manifest.routes, id);
    return route && typeof route === "object" && "module" in route && typeof route.module === "string"
      ? {
          module: route.module,
          imports:
            "imports" in route && Array.isArray(route.imports) ? route.imports.filter((i): i is string => typeof i === "string") : [],
        }
      : undefined;
  };
  const gzipOf = (ids: string[]) => {
    const files = new Set<string>();
    for (const id of ["root", ...ids]) {
      const route = routeOf(id);
      if (!route) continue;
      files.add(route.module);
      for (const i of route.imports ?? []) files.add(i);
    }
    let bytes = 0;
    for (const file of files) bytes += gzipSync(readFileSync(new URL(`.${file}`, new URL("../build/client/", import.meta.url)))).byteLength;
    return `${(bytes / 1024).toFixed(1)} KiB gzip (${files.size} files)`;
  };
  console.log(`Editor route JS (post-edit + root):`.padEnd(48) + gzipOf(["post-edit"]));
  for (const id of ["routes/home", "routes/blog/category", "routes/blog/post"])
    console.log(`Public route JS (${id} + root):`.padEnd(48) + gzipOf([id]));
}
