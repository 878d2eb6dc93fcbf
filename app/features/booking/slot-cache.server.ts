import { LruCache } from "~/lib/lru-cache";
import type { Db } from "~/server/db/client.server";
import type { Interval, Slot } from "./slots";

/**
 * The slot pages' computed slots, kept in memory (docs/decisions/0082-slot-cache.md). An entry is
 * the slots of one call type's rules in the site's zone for a window a little wider than the
 * horizon, computed at one slot stamp (booking_slot_stamp, renewed by the database on every write
 * to what slots are computed from, whichever instance or tool wrote). A request at another stamp, or
 * past the entry's span, computes again; within it, the entry is cut to the request's own notice and
 * horizon, which gives exactly the slots a fresh computation would (slots.ts, slotsStartingWithin).
 * The check at submit time never reads this cache.
 */

/** How long an entry serves (its window reaches this far past the horizon). */
export const SLOT_CACHE_SPAN_MS = 15 * 60_000;

interface Entry {
  stamp: string;
  /** The instant the window was computed for: the entry serves requests in [at, at + span). */
  at: number;
  slots: Promise<Slot[]>;
}

const MAX_ENTRIES = 32;
const caches = new WeakMap<Db, LruCache<Entry>>();

function cacheOf(db: Db): LruCache<Entry> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new LruCache<Entry>({ maxEntries: MAX_ENTRIES, maxSize: MAX_ENTRIES, sizeOf: () => 1 });
    caches.set(db, cache);
  }
  return cache;
}

/**
 * The slots (ascending) starting in [now + lead, now + reach), and the first instant they differ
 * without a write: a slot is offered while `now + lead <= start < now + reach`, so the first one
 * leaves a millisecond after `start - lead`, the next one past the window enters a millisecond after
 * `start - reach`, and past the entry's span nothing further is known.
 */
function cut(entry: { at: number; slots: readonly Slot[] }, now: number, window: { lead: number; reach: number }): CachedSlots {
  const { slots } = entry;
  const first = now + window.lead;
  const until = now + window.reach;
  let from = 0;
  while (from < slots.length && (slots[from]?.start ?? Infinity) < first) from++;
  let to = from;
  while (to < slots.length && (slots[to]?.start ?? Infinity) < until) to++;
  const leaving = slots[from];
  const entering = slots[to];
  const changesAt = Math.min(
    entry.at + SLOT_CACHE_SPAN_MS,
    leaving && from < to ? leaving.start - window.lead + 1 : Infinity,
    entering ? entering.start - window.reach + 1 : Infinity,
  );
  return { slots: slots.slice(from, to), changesAt };
}

export interface CachedSlots {
  slots: Slot[];
  /** The first instant at which the slots listed may differ without a write (see `cut`). */
  changesAt: number;
}

/**
 * The slots starting in [now + `lead`, now + `reach`) for `key` (a call type's rules and zone) at
 * `stamp`: from the entry if it serves `now`, else `compute`d for [now + lead, now + reach + span)
 * and kept. Concurrent requests of one key and stamp share one computation; a failed one is not kept.
 */
export async function cachedSlots(
  db: Db,
  key: string,
  stamp: string,
  now: number,
  window: { lead: number; reach: number },
  compute: (window: Interval) => Promise<Slot[]>,
): Promise<CachedSlots> {
  const cache = cacheOf(db);
  let entry = cache.get(key);
  if (!entry || entry.stamp !== stamp || now < entry.at || now >= entry.at + SLOT_CACHE_SPAN_MS) {
    const fresh: Entry = { stamp, at: now, slots: compute({ start: now + window.lead, end: now + window.reach + SLOT_CACHE_SPAN_MS }) };
    cache.set(key, fresh);
    fresh.slots.catch(() => {
      if (cache.get(key) === fresh) cache.delete(key);
    });
    entry = fresh;
  }
  return cut({ at: entry.at, slots: await entry.slots }, now, window);
}
