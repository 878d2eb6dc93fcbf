import { createRequire } from "node:module";
import { logger } from "./logger.server";

/** glibc's mallopt parameters (malloc.h). */
const M_MMAP_THRESHOLD = -3;
const M_ARENA_MAX = -8;

/** What the Dockerfile's environment sets (docs/decisions/0040-server-memory.md). */
const ARENA_MAX = 2;
const MMAP_THRESHOLD = 128 * 1024;

interface Glibc {
  mallopt: (parameter: number, value: number) => number;
  mallocTrim: (pad: number) => number;
}

let glibc: Glibc | null | undefined;

export function runsOnGlibc(): boolean {
  if (process.platform !== "linux") return false;
  const report = process.report.getReport();
  const header = "header" in report ? report.header : undefined;
  return typeof header === "object" && header !== null && "glibcVersionRuntime" in header;
}

/** libc's two functions through koffi (an FFI), or null where there is no glibc or no koffi build. */
function loadGlibc(): Glibc | null {
  if (glibc !== undefined) return glibc;
  glibc = null;
  if (!runsOnGlibc()) return glibc;
  try {
    const koffi: typeof import("koffi") = createRequire(import.meta.url)("koffi");
    const libc = koffi.load("libc.so.6");
    const mallopt = libc.func("int mallopt(int param, int value)");
    const mallocTrim = libc.func("int malloc_trim(size_t pad)");
    glibc = {
      mallopt: (parameter, value) => Number(mallopt(parameter, value)),
      mallocTrim: (pad) => Number(mallocTrim(pad)),
    };
  } catch (error) {
    logger.debug({ err: error }, "glibc malloc tuning unavailable");
  }
  return glibc;
}

/**
 * On Linux with glibc, what the Dockerfile's MALLOC_ARENA_MAX=2 and MALLOC_MMAP_THRESHOLD_=131072
 * do, for a server started any other way (`npm start`, `node server.js`): glibc reads those variables
 * only as the process starts, and `npm start` cannot set them on every platform. Two arenas instead
 * of one per thread (sharp's, argon2's and V8's compiler threads each kept their own, 40-110 MB in
 * all), and big blocks mapped on their own so freeing them returns them. Arenas made before this
 * call stay. A variable the operator set wins. Returns whether it applied.
 */
export function tuneMalloc(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.MALLOC_ARENA_MAX !== undefined || env.MALLOC_MMAP_THRESHOLD_ !== undefined) return false;
  const libc = loadGlibc();
  if (!libc) return false;
  return libc.mallopt(M_ARENA_MAX, ARENA_MAX) === 1 && libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) === 1;
}

/**
 * Hands malloc's free pages back to the system (glibc's malloc_trim): memory freed by image work and
 * password hashing otherwise stays resident in its arenas. Whether any was released; false without glibc.
 */
export function trimMalloc(): boolean {
  const libc = loadGlibc();
  return libc ? libc.mallocTrim(0) === 1 : false;
}

/** How often the server hands free malloc pages back while it runs (a trim with nothing to free is ~0.1 ms). */
const TRIM_INTERVAL_MS = 10_000;
let trimming: NodeJS.Timeout | undefined;

/** Trims every TRIM_INTERVAL_MS from now on (uploads, sign-ins and image work leave freed pages). */
export function startMallocTrimming(): void {
  if (trimming || !loadGlibc()) return;
  trimming = setInterval(trimMalloc, TRIM_INTERVAL_MS);
  trimming.unref();
}

export function stopMallocTrimming(): void {
  clearInterval(trimming);
  trimming = undefined;
}
