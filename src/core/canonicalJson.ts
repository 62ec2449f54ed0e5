// One text per value: the stable form dedup keys, variant comparisons and robustness figures hash and compare.

/** JSON with object keys sorted at every depth: equal values give equal text, whatever order their keys came in. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    // undefined (absent optional fields) reads as null, like JSON.stringify inside arrays.
    return value === undefined ? 'null' : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
