// A small least-recently-used cache over a Map (Maps keep insertion order, so the first key is the oldest).

/** Bounded cache; `get` refreshes an entry, `set` evicts the oldest beyond `limit`. */
export class Lru<K, V> {
  readonly #map = new Map<K, V>();
  constructor(readonly limit: number) {}

  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.limit) this.#map.delete(this.#map.keys().next().value as K);
  }

  get size(): number {
    return this.#map.size;
  }
}
