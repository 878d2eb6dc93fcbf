/**
 * In-memory TTL cache with stale-while-revalidate: a fresh entry is served as is; a stale one (even a
 * failure) is served at once while one background refresh runs; a missing one is loaded (concurrent
 * callers share the load).
 * Failures are cached too (as `null`) for a shorter time so a broken source is not hammered.
 */
export interface FeedCacheOptions {
  ttlMs: number;
  failureTtlMs: number;
  now?: () => number;
  /** At most this many addresses are kept (the oldest written goes first): callers may name many. */
  maxEntries?: number;
  onRefreshError?: (key: string, error: unknown) => void;
}

interface Entry<T> {
  value: T | null;
  expiresAt: number;
}

export class FeedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly inFlight = new Map<string, Promise<T | null>>();
  private readonly now: () => number;

  constructor(private readonly options: FeedCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  async get(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > this.now()) return entry.value;
    const refresh = this.refresh(key, load);
    // Stale: answer now (a failed source stays omitted), the refresh replaces the entry when it
    // lands. Only a key never loaded waits for the network.
    if (entry) {
      refresh.catch((error: unknown) => this.options.onRefreshError?.(key, error));
      return entry.value;
    }
    return refresh;
  }

  private store(key: string, entry: Entry<T>) {
    this.entries.delete(key);
    this.entries.set(key, entry);
    const max = this.options.maxEntries ?? 100;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= max) break;
      this.entries.delete(oldest);
    }
  }

  clear() {
    this.entries.clear();
  }

  private refresh(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const promise = (async () => {
      try {
        const value = await load();
        const previous = this.entries.get(key);
        if (value === null && previous?.value != null) {
          // A failed refresh keeps the last good value, retried after the failure TTL.
          this.store(key, { value: previous.value, expiresAt: this.now() + this.options.failureTtlMs });
          return previous.value;
        }
        this.store(key, { value, expiresAt: this.now() + (value === null ? this.options.failureTtlMs : this.options.ttlMs) });
        return value;
      } finally {
        this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, promise);
    return promise;
  }
}
