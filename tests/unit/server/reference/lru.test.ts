import { describe, expect, it } from 'vitest';
import { Lru } from '../../../../src/server/reference/judge/lru';

describe('the reference caches’ Lru', () => {
  it('keeps at most its entries and bytes, evicting the oldest first', () => {
    const lru = new Lru<string, number>(3, 100);
    for (const k of ['a', 'b', 'c', 'd']) lru.set(k, 1, 25);
    expect(lru.size).toBe(3);
    expect(lru.get('a')).toBeUndefined();
    lru.set('e', 1, 25);
    lru.set('f', 1, 25);
    lru.set('g', 1, 25);
    expect(lru.bytes).toBe(75);
    expect(lru.get('g')).toBe(1);
    expect(lru.get('d')).toBeUndefined();
  });

  it('does not keep an entry larger than a quarter of its bytes', () => {
    const lru = new Lru<string, number>(10, 100);
    lru.set('huge', 1, 26);
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.bytes).toBe(0);
  });

  it('an entry read often survives a stream of new entries; one never read is evicted', () => {
    const lru = new Lru<string, number>(100);
    lru.set('hot', 1);
    lru.set('cold', 2);
    for (let i = 0; i < 10_000; i++) {
      lru.set(`k${i}`, i);
      expect(lru.get('hot')).toBe(1);
    }
    expect(lru.get('cold')).toBeUndefined();
    expect(lru.size).toBe(100);
  });
});
