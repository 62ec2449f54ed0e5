// The canonical JSON every dedup key and shard identity hashes: one text per value, whatever the order of its keys.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/core/canonicalJson';

/** The form the keys were first written with (entries sorted by `<`): stored keys must keep matching. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object')
    return value === undefined ? 'null' : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(',')}}`;
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined fields', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: null, y: 'x' }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"y":"x","z":null}]},"b":1}',
    );
    expect(canonicalJson([undefined, 'a"b'])).toBe('[null,"a\\"b"]');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson([])).toBe('[]');
  });

  it('orders keys by UTF-16 code units, as the first form did (upper case, accents, astral characters)', () => {
    const value = { é: 1, e: 2, E: 3, '😀': 4, '\uffff': 5, '10': 6, '9': 7, '': 8 };
    expect(canonicalJson(value)).toBe(reference(value));
    expect(canonicalJson(value)).toBe('{"":8,"10":6,"9":7,"E":3,"e":2,"é":1,"😀":4,"\uffff":5}');
  });

  it('gives the same text as the first form on many generated values', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const gen = (depth: number): unknown => {
      const kind = rand(depth > 2 ? 4 : 6);
      if (kind === 0) return rand(1000) - 500;
      if (kind === 1) return ['a', 'B', 'é', '', 'x y'][rand(5)];
      if (kind === 2) return [true, false, null, undefined][rand(4)];
      if (kind === 3) return rand(100) / 7;
      if (kind === 4) return Array.from({ length: rand(4) }, () => gen(depth + 1));
      return Object.fromEntries(
        Array.from({ length: rand(5) }, () => [['k', 'K', 'é', 'a1', '_'][rand(5)]!, gen(depth + 1)]),
      );
    };
    for (let i = 0; i < 500; i++) {
      const v = gen(0);
      expect(canonicalJson(v)).toBe(reference(v));
    }
  });
});
