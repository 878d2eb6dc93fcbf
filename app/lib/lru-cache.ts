/**
 * Least-recently-used cache bounded by entry count and by a size measure (for example bytes), so a
 * few very large values cannot hold the process's memory. Map keeps insertion order: the first key
 * is always the least recently used one.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private total = 0;

  constructor(private readonly limits: { maxEntries: number; maxSize: number; sizeOf: (value: V) => number }) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const size = this.limits.sizeOf(value);
    this.delete(key);
    // A value larger than the whole budget would only evict everything else and then itself.
    if (size > this.limits.maxSize) return;
    this.entries.set(key, { value, size });
    this.total += size;
    while (this.entries.size > this.limits.maxEntries || this.total > this.limits.maxSize) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.size;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get totalSize(): number {
    return this.total;
  }
}
