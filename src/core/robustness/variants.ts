// Near-duplicate states: the same state with only its form changed (whitespace, casing, the order of its fields). A
// rubric's answer should not move for these; field names are never touched, since instructions may name them.
import type { JsonValue, State } from '../../contract';
import { canonicalJson } from '../rows/dedup';

export const VARIANT_KINDS = ['whitespace', 'casing', 'fieldOrder'] as const;
export type VariantKind = (typeof VARIANT_KINDS)[number];

/** How each variant reads on a card. */
export const VARIANT_LABELS: Record<VariantKind, string> = {
  whitespace: 'whitespace changed',
  casing: 'casing changed',
  fieldOrder: 'field order changed',
};

/** A changed copy of the state. */
export interface StateVariant {
  kind: VariantKind;
  state: State;
}

const mapStrings = (value: JsonValue, f: (s: string) => string): JsonValue => {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  return value;
};

const reverseFields = (value: JsonValue): JsonValue => {
  if (Array.isArray(value)) return value.map(reverseFields);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reverseFields(v)]),
    );
  return value;
};

/** Every run of spaces doubled, a space after each line break and a trailing newline: same words, other spacing. */
export const respace = (text: string): string =>
  `${text.replace(/ +/g, (m) => m + m).replace(/\n/g, '\n ')}\n`;

/** Lower case; text already all lower case goes to upper case instead, so the variant always differs. */
const recase = (state: JsonValue): JsonValue => {
  const lower = mapStrings(state, (s) => s.toLowerCase());
  return JSON.stringify(lower) !== JSON.stringify(state) ? lower : mapStrings(state, (s) => s.toUpperCase());
};

/** The state as the model reads it, key order included (two states that read the same are not a variant). */
const sentText = (state: JsonValue): string => JSON.stringify(state);

/**
 * The near-duplicate variants of a state, in VARIANT_KINDS order, for the kinds asked. A kind that would send the same
 * text is left out (a state without strings has no casing; a text state has no fields to reorder).
 */
export function stateVariants(state: State, kinds: readonly VariantKind[] = VARIANT_KINDS): StateVariant[] {
  const original = state as JsonValue;
  const out: StateVariant[] = [];
  for (const kind of VARIANT_KINDS) {
    if (!kinds.includes(kind)) continue;
    const changed =
      kind === 'whitespace'
        ? mapStrings(original, respace)
        : kind === 'casing'
          ? recase(original)
          : reverseFields(original);
    // NOTE: reversing an object whose keys are whole numbers changes nothing (JS lists them numerically): skipped.
    if (sentText(changed) === sentText(original)) continue;
    // The field-order variant must hold the same data: only the order may differ.
    if (kind === 'fieldOrder' && canonicalJson(changed) !== canonicalJson(original)) continue;
    out.push({ kind, state: changed as State });
  }
  return out;
}
