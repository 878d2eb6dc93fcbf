// Process entry: serves the production build (or Vite in development with --dev), after start-up
// work (database, migrations, seeding) has finished, and shuts down cleanly on SIGTERM/SIGINT.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import v8 from "node:v8";
import compression from "compression";
import express from "express";
import { keepTickObjectShapes } from "./server/tick-shapes.mjs";

// First, before module loading and start-up run full collections: node's nextTick entries keep
// their fast shapes (server/tick-shapes.mjs).
keepTickObjectShapes();

if (fs.existsSync(".env")) process.loadEnvFile(".env");

// On a machine with plenty of memory V8 lets the old generation grow to 4x the live heap between
// full collections: ~50 MB live stood at ~230 MB (RSS ~510 MB) after 1,800 page renders. 1.4x, what
// V8 itself picks for a 512 MB heap, keeps RSS near 340 MB for 10-20% more CPU per uncached render
// (docs/decisions/0040-server-memory.md). Read at every collection, so it applies from here on.
v8.setFlagsFromString("--heap-growing-percent=40");
// WebAssembly (PGlite's PostgreSQL) runs on V8's baseline compiler only: optimizing its hot functions
// took seconds of CPU beside the first requests and left ~40-70 MB of compiler memory in malloc's
// per-thread arenas for good, for ~30% faster queries (docs/decisions/0038-pglite-memory.md). Set before PGlite compiles its
// module; `node --no-liftoff-only server.js` keeps V8's default (a big site that wants the speed).
if (!process.execArgv.includes("--no-liftoff-only")) v8.setFlagsFromString("--liftoff-only");

const DEVELOPMENT = process.argv.includes("--dev") || process.env.NODE_ENV === "development";
// React and React Router pick their development builds (several times slower) unless told otherwise,
// and they read NODE_ENV when first imported: set it before the app is loaded.
process.env.NODE_ENV = DEVELOPMENT ? "development" : "production";

async function loadAppModule() {
  if (!DEVELOPMENT) {
    const mod = await import("./build/server/index.js");
    return { mod, vite: undefined };
  }
  const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
  const mod = await vite.ssrLoadModule("./server/app.ts");
  return { mod, vite };
}

let mod;
let vite;
try {
  ({ mod, vite } = await loadAppModule());
  await mod.startup();
} catch (error) {
  if (error && (error.name === "EnvError" || error.name === "DataDirLockedError" || error.name === "ValidationError")) {
    console.error(`\nCannot start: ${error.message}\n`);
  } else {
    console.error("Cannot start:", error);
  }
  process.exit(1);
}

const env = mod.getEnv();
const logger = mod.logger;
const server = express();
server.disable("x-powered-by");
// The same headers on static files as on pages (server/security-headers.ts); the app's trust proxy
// setting (TRUST_PROXY) is its own.
server.use(mod.securityHeaders);
server.use(compression());

if (vite) {
  server.use(vite.middlewares);
  server.use(async (req, res, next) => {
    try {
      const source = await vite.ssrLoadModule("./server/app.ts");
      return await source.app(req, res, next);
    } catch (error) {
      if (typeof error === "object" && error instanceof Error) vite.ssrFixStacktrace(error);
      next(error);
    }
  });
} else {
  // Before the static files: the owner's favicon, when set, replaces the default /favicon.ico.
  server.get("/favicon.ico", mod.siteFavicon);
  server.use(precompressedAssets("build/client"));
  server.use("/assets", onlyForFiles("build/client", express.static("build/client/assets", { immutable: true, maxAge: "1y" })));
  server.use(onlyForFiles("build/client", express.static("build/client", { maxAge: "1h" })));
  server.use(mod.app);
}

/**
 * The static middleware asked only where a built file or folder may answer: for every page it would
 * otherwise stat() the disk for a file that is not there (a share of a signed-in page's CPU). The
 * build's client folder does not change while the server runs; a name with a dot (robots.txt,
 * /assets/x.js) or ending in "/" still goes to it, as does every folder of the build.
 */
function onlyForFiles(root, serve) {
  const folders = new Set();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const full = path.join(dir, entry.name);
      folders.add(`/${path.relative(root, full).split(path.sep).join("/")}`);
      walk(full);
    }
  };
  if (fs.existsSync(root)) walk(root);
  return (req, res, next) => {
    const full = `${req.baseUrl}${req.path}`;
    const last = full.slice(full.lastIndexOf("/") + 1);
    if (last !== "" && !last.includes(".") && !folders.has(full)) return next();
    serve(req, res, next);
  };
}

/**
 * Serves the .br / .gz that scripts/precompress.mjs wrote at build time in place of a file, when the
 * client accepts that encoding: express.static then sends it (the type stays the original file's,
 * and the compression middleware leaves an encoded body alone).
 */
function precompressedAssets(root) {
  const available = new Set();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(br|gz)$/.test(entry.name)) available.add(`/${path.relative(root, full).split(path.sep).join("/")}`);
    }
  };
  if (fs.existsSync(root)) walk(root);
  const suffix = { br: ".br", gzip: ".gz" };
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || (!available.has(`${req.path}.br`) && !available.has(`${req.path}.gz`)))
      return next();
    const encoding = req.acceptsEncodings("br", "gzip");
    res.vary("Accept-Encoding");
    if (!encoding || !available.has(`${req.path}${suffix[encoding]}`)) return next();
    res.type(path.extname(req.path));
    res.setHeader("Content-Encoding", encoding);
    req.url = `${req.path}${suffix[encoding]}${req.url.slice(req.path.length)}`;
    next();
  };
}

// Before the first request: V8 fixes the layout of node:http's objects from the first few it makes
// (server/object-shapes.ts).
mod.settleHttpObjectShapes();

// Page-cache hits go out first, already compressed, from node:http's own request before Express
// wraps it (docs/decisions/0031-cache-hit-path.md); everything else goes to the Express app.
const listener = http.createServer((req, res) => {
  // The server collects garbage once it has been quiet for a moment (app/server/gc.server.ts).
  mod.noteRequest();
  if (!vite && mod.answerPageCacheHit(req, res)) return;
  server(req, res);
});
listener.listen(env.PORT, env.HOST, () => {
  logger.info({ url: `http://localhost:${env.PORT}`, host: env.HOST }, "server listening");
  if (!vite) void warmUp();
});

/** Renders a few pages once so the first visitor does not pay for cold code paths (JIT, lazy imports). */
async function warmUp() {
  const host = env.HOST === "0.0.0.0" || env.HOST === "::" ? "127.0.0.1" : env.HOST;
  for (const path of ["/", "/7fs/Faith", "/contact"]) {
    try {
      const res = await fetch(`http://${host.includes(":") ? `[${host}]` : host}:${env.PORT}${path}`, {
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
    } catch {
      // Best effort only: a failed warm-up changes nothing.
    }
  }
}

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down");
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  // Stop accepting connections and let requests in flight finish before the database closes.
  const closed = new Promise((resolve) => listener.close(resolve));
  listener.closeIdleConnections?.();
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  try {
    await mod.shutdown();
    await vite?.close();
  } catch (error) {
    logger.error({ err: error }, "error during shutdown");
  }
  // 1 when the server asked to be restarted (the embedded database stopped: server/startup.ts).
  process.exit(process.exitCode ?? 0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
