// Type guards every floor shares; the contract holds them because it is the one folder all others may import.

/** A plain object with named fields: not null, not an array. */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
