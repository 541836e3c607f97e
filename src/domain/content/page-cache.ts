// Recently served list pages, kept per account and valid only while the account's event sequence
// (bumped in the same transaction as every change) is unchanged. A hit costs one primary-key read
// instead of the page and count queries; a change anywhere in the account, on any instance,
// invalidates every page of that account, so a client never reads a page older than its own writes.
export class PageCache<T> {
  private readonly entries = new Map<string, { generation: number; value: T }>();

  /** `maxEntries` 0 turns the cache off (LIST_CACHE_ENTRIES=0). */
  constructor(private readonly maxEntries = 2000) {}

  get enabled(): boolean {
    return this.maxEntries > 0;
  }

  get(key: string, generation: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation !== generation) {
      this.entries.delete(key);
      return undefined;
    }
    // Least recently used goes first: re-insert to move this entry to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores a page computed after `generation` was read (so it is at least that fresh). */
  set(key: string, generation: number, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { generation, value });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
