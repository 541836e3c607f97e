// Recently served answers — list pages, single items — kept per instance and valid only while their
// account's event sequence (bumped in the same transaction as every change) is unchanged. A hit
// costs one primary-key read instead of the queries behind the answer; a change anywhere in the
// account, on any instance, invalidates every entry of that account, so a client never reads an
// answer older than its own writes. Bounded by entries and, where entries differ in size, by bytes;
// the least recently used entry goes first.

export interface CacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

export interface CacheBounds<T> {
  /** Most entries kept; 0 turns the cache off. */
  maxEntries: number;
  /** Most bytes kept, as `sizeOf` counts them; unbounded when absent. */
  maxBytes?: number;
  /** An entry's approximate size in bytes (needed with `maxBytes`). */
  sizeOf?: (value: T) => number;
}

interface Entry<T> {
  generation: number;
  value: T;
  size: number;
}

export class PageCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly sizeOf: (value: T) => number;
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  /** A number is `maxEntries` alone (LIST_CACHE_ENTRIES; 0 turns the cache off). */
  constructor(bounds: number | CacheBounds<T> = 2000) {
    const b = typeof bounds === 'number' ? { maxEntries: bounds } : bounds;
    this.maxEntries = b.maxEntries;
    this.maxBytes = b.maxBytes ?? Infinity;
    this.sizeOf = b.sizeOf ?? (() => 0);
  }

  get enabled(): boolean {
    return this.maxEntries > 0 && this.maxBytes > 0;
  }

  get(key: string, generation: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.generation !== generation) {
      if (entry) this.remove(key, entry);
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Least recently used goes first: re-insert to move this entry to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores an answer computed after `generation` was read (so it is at least that fresh). */
  set(key: string, generation: number, value: T): void {
    if (!this.enabled) return;
    const size = this.sizeOf(value);
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    if (size > this.maxBytes) return;
    this.entries.set(key, { generation, value, size });
    this.bytes += size;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.remove(oldestKey, oldest);
    }
  }

  stats(): CacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, bytes: this.bytes };
  }

  private remove(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.bytes -= entry.size;
  }
}
