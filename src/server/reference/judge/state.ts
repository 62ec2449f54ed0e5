// Reads the state field by field, so a question can weigh the fields its instructions name in backticks.
import type { Description, State } from '../../../contract';
import type { ReadSettings, TextProfile } from './text';
import { emptyProfile, readText } from './text';

/** One top-level field of the state (or the whole state when it is text or an array element). */
export interface StateField {
  /** Top-level key, or null for a text state and for array elements. */
  key: string | null;
  profile: TextProfile;
}

type Json = State | Description | number | boolean | null;

// Leaves of one field joined into text. A bare number or flag means little without its key, so those carry the key;
// a false flag reads as "not <key>".
function collectText(value: Json | undefined, key: string | null, out: string[]): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(`${key ?? ''} ${value}`);
  else if (typeof value === 'boolean') out.push(value ? `${key ?? 'yes'}` : `not ${key ?? 'yes'}`);
  else if (Array.isArray(value)) for (const v of value) collectText(v as Json, key, out);
  else for (const [k, v] of Object.entries(value)) collectText(v as Json, k.replace(/_/g, ' '), out);
}

/** How the state is read: the reader's settings and the weight of malfunction words (see readText). */
export interface StateReadSettings extends ReadSettings {
  malfunctionWeight: number;
}

/** Reads the state once per request; questions then combine the fields with their own weights. */
export function readState(state: State, settings: StateReadSettings): StateField[] {
  const m = settings.malfunctionWeight;
  if (typeof state === 'string') return [{ key: null, profile: readText(state, settings, undefined, 1, m) }];
  const entries: Array<[string | null, Json]> = Array.isArray(state)
    ? state.map((v) => [null, v as Json])
    : Object.entries(state).map(([k, v]) => [k, v as Json]);
  return entries.map(([key, value]) => {
    const parts: string[] = [];
    collectText(value, key === null ? null : key.replace(/_/g, ' '), parts);
    // Leaves are joined with a full stop so a negation in one leaf does not reach into the next.
    return { key, profile: readText(parts.join('. '), settings, undefined, 1, m) };
  });
}

const BACKTICKED = /`([^`\n]{1,200})`/g;

/** Top-level field names an instructions text names in backticks: `claim`, `customer.tier` -> claim, customer. */
export function namedFields(instructionsText: string): string[] {
  const names = new Set<string>();
  for (const m of instructionsText.matchAll(BACKTICKED)) {
    const name = m[1]!.trim().split('.')[0]!.trim();
    if (name) names.add(name);
  }
  return [...names];
}

/** The state as one query for a question: each field's profile scaled by its weight. */
export function weightedState(
  fields: readonly StateField[],
  named: readonly string[],
  weights: { fieldWeight: number; otherFieldWeight: number },
): TextProfile {
  // The common case (text state, or no field named) needs no copy.
  const anyNamed = named.length > 0 && fields.some((f) => f.key !== null && named.includes(f.key));
  if (fields.length === 1 && !anyNamed) return fields[0]!.profile;
  const out = emptyProfile();
  for (const field of fields) {
    const w = !anyNamed
      ? 1
      : field.key !== null && named.includes(field.key)
        ? weights.fieldWeight
        : weights.otherFieldWeight;
    if (w === 0) continue;
    for (const [term, n] of field.profile.terms) out.terms.set(term, (out.terms.get(term) ?? 0) + n * w);
    out.affect.distress += field.profile.affect.distress * w;
    out.affect.urgency += field.profile.affect.urgency * w;
    out.cues += field.profile.cues * w;
    out.length += field.profile.length * w;
  }
  return out;
}
