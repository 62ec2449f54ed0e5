// One text per value: the stable form dedup keys, variant comparisons and robustness figures hash and compare.

/**
 * JSON with object keys sorted at every depth: equal values give equal text, whatever order their keys came in. Keys
 * sort by UTF-16 code units (Array#sort's own order). Built by concatenation: every shard runs it on every row's state.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    // undefined (absent optional fields) reads as null, like JSON.stringify inside arrays.
    return value === undefined ? 'null' : JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(record).sort()) {
    const v = record[key];
    if (v === undefined) continue;
    out += (out.length === 1 ? '' : ',') + JSON.stringify(key) + ':' + canonicalJson(v);
  }
  return `${out}}`;
}
