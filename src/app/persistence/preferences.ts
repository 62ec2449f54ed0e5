// This browser's display preferences (the local-only note hidden, the theme) in localStorage: small, per browser, not
// part of a session. Each value is parsed with zod on read; a missing, unreadable or blocked store gives the default.
import { z } from 'zod';

const PREFIX = 'evaluate-workbench.';

export const ThemeChoice = z.enum(['system', 'light', 'dark']);
export type ThemeChoice = z.infer<typeof ThemeChoice>;

/** Every preference, with its schema and default. */
const SCHEMAS = {
  noteHidden: z.boolean(),
  theme: ThemeChoice,
} as const;
export type PreferenceKey = keyof typeof SCHEMAS;
export type PreferenceValue<K extends PreferenceKey> = z.infer<(typeof SCHEMAS)[K]>;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // NOTE: a browser that blocks storage throws on the property access itself.
    return null;
  }
}

/** The saved value of `key`, or `fallback` when there is none or it does not parse. */
export function readPreference<K extends PreferenceKey>(
  key: K,
  fallback: PreferenceValue<K>,
): PreferenceValue<K> {
  try {
    const raw = storage()?.getItem(PREFIX + key);
    if (raw == null) return fallback;
    const parsed = SCHEMAS[key].safeParse(JSON.parse(raw));
    return parsed.success ? (parsed.data as PreferenceValue<K>) : fallback;
  } catch {
    return fallback;
  }
}

/** Saves `value` for `key`; a full or blocked store keeps the choice for this page only. */
export function writePreference<K extends PreferenceKey>(key: K, value: PreferenceValue<K>): void {
  try {
    storage()?.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // The choice still applies to this page; it is only not remembered.
  }
}
