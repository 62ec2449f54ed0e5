// A small least-recently-used cache over a Map (Maps keep insertion order, so the first key is the oldest), bounded
// by entries and by an estimate of the bytes it holds, so a few huge entries cannot grow the process.

/**
 * Bounded cache; `get` refreshes an entry, `set` evicts the oldest beyond either limit. A hit moves its entry to the
 * newest end only when it has aged past half the cache's length in operations: a hot entry is not re-inserted on every
 * hit (each move hashes its key twice), and still cannot reach the oldest end unrefreshed.
 */
export class Lru<K, V> {
  readonly #map = new Map<K, { value: V; bytes: number; stamp: number }>();
  #bytes = 0;
  #clock = 0;
  /** `limit` entries and `maxBytes` bytes at most; an entry larger than a quarter of `maxBytes` is not kept. */
  constructor(
    readonly limit: number,
    readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  get(key: K): V | undefined {
    const entry = this.#map.get(key);
    if (entry === undefined) return undefined;
    this.#clock++;
    if (this.#clock - entry.stamp > this.limit / 2) {
      entry.stamp = this.#clock;
      this.#map.delete(key);
      this.#map.set(key, entry);
    }
    return entry.value;
  }

  /** Keeps `value` under `key`; `bytes` is the caller's estimate of what the key and value hold. */
  set(key: K, value: V, bytes = 0): void {
    this.delete(key);
    if (bytes > this.maxBytes / 4) return;
    this.#map.set(key, { value, bytes, stamp: ++this.#clock });
    this.#bytes += bytes;
    while (this.#map.size > this.limit || this.#bytes > this.maxBytes) {
      this.delete(this.#map.keys().next().value as K);
    }
  }

  delete(key: K): void {
    const entry = this.#map.get(key);
    if (entry === undefined) return;
    this.#map.delete(key);
    this.#bytes -= entry.bytes;
  }

  clear(): void {
    this.#map.clear();
    this.#bytes = 0;
  }

  get size(): number {
    return this.#map.size;
  }
  /** The bytes the entries are estimated to hold. */
  get bytes(): number {
    return this.#bytes;
  }
}
