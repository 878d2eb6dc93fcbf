// Plain JavaScript, imported by server.js before the application bundle is loaded (which is why it
// is not TypeScript inside the bundle: by then it is too late; docs/decisions/0089-hit-path-tick-shapes.md).
import { createHook } from "node:async_hooks";

/** Entries held for the life of the process, so that the shapes they went through are never collected. */
const kept = [];

/**
 * Keeps one of node's `process.nextTick` entries alive for good. An entry is an object literal whose
 * first two keys are symbols; V8 adds them by transitions from the literal's empty shape, and a full
 * garbage collection clears a transition when no live object has its target shape. Between bursts of
 * work no entry is alive, so each full collection then (module loading, start-up, the idle collection
 * of app/server/gc.server.ts) made the next entries take brand-new shapes; after a few, the
 * literal's inline cache in `nextTick` gave up for good and every entry was built by a runtime call.
 * A request queues several entries (the end of the write, the request stream's end, the finished
 * response): 6–9 % of a page-cache hit's CPU. A bare node:http server given the same collections
 * went from ~22 to 33–36 µs of CPU per request. With one entry alive its shapes, and the transitions
 * to them, stay. Must run before the first collections, so server.js calls it before it loads the app.
 */
export function keepTickObjectShapes() {
  if (kept.length > 0) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === "TickObject") kept.push(resource);
    },
  });
  hook.enable();
  process.nextTick(noop);
  hook.disable();
}

function noop() {}
