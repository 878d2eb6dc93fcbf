import v8 from "node:v8";
import vm from "node:vm";
import { trimMalloc } from "./glibc-malloc.server";

let collect: (() => void) | undefined;
let last = 0;
let trailing: NodeJS.Timeout | undefined;

/** At most one forced collection per this many ms; a later request is run at the end of the window. */
const MIN_INTERVAL_MS = 500;

function fullCollection(): void {
  if (!collect) {
    // The only way to a full collection without a launcher flag: the flag applies to contexts made
    // after it is set, so a fresh context hands over its gc function.
    v8.setFlagsFromString("--expose-gc");
    const gc: unknown = vm.runInNewContext("gc");
    collect = typeof gc === "function" ? () => void gc() : () => undefined;
  }
  last = Date.now();
  // Compacting: a plain full collection leaves the old generation's half-empty pages committed (after
  // the e2e-like workload 52-56 MiB held 42 MiB of live objects); moving the survivors together hands
  // those pages back. Only for these forced collections (the server quiet, or after image work); V8's
  // own keep their usual heuristics. The evacuated pages are released by background sweeping, which a
  // second collection finishes: without it RSS stood ~10 MiB higher for a second or two
  // (docs/decisions/0088-share-cards-in-a-worker.md).
  v8.setFlagsFromString("--compact-on-every-full-gc");
  try {
    collect();
  } finally {
    v8.setFlagsFromString("--no-compact-on-every-full-gc");
  }
  collect();
  // What the collection freed natively stays in malloc's arenas until handed back.
  trimMalloc();
}

/**
 * Asks for a full garbage collection soon, after work that left native memory V8 does not know about
 * behind small JS objects (an upload's image buffers, the share-card worker's end; resvg's pixmaps, 3 MB
 * per share image when cards were drawn on the main thread, were freed only when their wrapper was
 * collected, which a quiet old generation may not do for a long time; docs/decisions/0040-server-memory.md).
 * Throttled, so a burst of such work costs a few collections, not one each.
 */
export function releaseNativeMemorySoon(): void {
  if (trailing) return;
  const wait = last + MIN_INTERVAL_MS - Date.now();
  if (wait <= 0) {
    fullCollection();
    return;
  }
  trailing = setTimeout(() => {
    trailing = undefined;
    fullCollection();
  }, wait);
  trailing.unref();
}

/**
 * How long the server must have had no request before it collects once: a burst of rendering leaves
 * garbage and freed malloc pages that V8's own heuristics hand back only much later, if the process
 * stays quiet (RSS 264 MiB right after the e2e-like workload, 252 MiB 11 s on).
 */
const IDLE_COLLECT_MS = 1_000;
let lastRequest = 0;
let idleCheck: NodeJS.Timeout | undefined;

/** Called for every request the server receives (cheap: one assignment). */
export function noteRequest(): void {
  lastRequest = Date.now();
}

/**
 * One full collection (and malloc trim) each time the server goes quiet after serving requests: none
 * again until a request comes after the last collection (this one or releaseNativeMemorySoon's).
 */
export function startIdleCollection(): void {
  if (idleCheck) return;
  idleCheck = setInterval(() => {
    if (lastRequest <= last || Date.now() - lastRequest < IDLE_COLLECT_MS) return;
    fullCollection();
  }, IDLE_COLLECT_MS / 2);
  idleCheck.unref();
}

export function stopIdleCollection(): void {
  clearInterval(idleCheck);
  idleCheck = undefined;
}
