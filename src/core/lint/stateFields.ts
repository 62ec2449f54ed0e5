// State field names, and the field names that rubric texts mention in backticks: shared by lint and completion.
import { isRecord } from '../../contract/guards';

/**
 * The named fields of a state: the keys of an object state, or the union of the keys of the objects inside an array
 * state, in first-seen order. A text state (or one that does not parse) has none.
 */
export function stateFieldNames(state: unknown): string[] {
  if (isRecord(state)) return Object.keys(state);
  if (!Array.isArray(state)) return [];
  const names = new Set<string>();
  for (const item of state) if (isRecord(item)) for (const key of Object.keys(item)) names.add(key);
  return [...names];
}

// A field reference is an identifier, optionally dotted into nested fields (`customer.name`). Backticks around
// anything else (a phrase, a number, a symbol) quote text rather than name a field.
const FIELD_REF = /^[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*$/;
const BACKTICKED = /`([^`\n]+)`/g;

/** Field names written in backticks in a text (`claim`, `customer.name`), unique, in order of first mention. */
export function backtickFields(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(BACKTICKED)) {
    const name = match[1]!.trim();
    if (FIELD_REF.test(name)) found.add(name);
  }
  return [...found];
}

/** True when a (possibly dotted) field reference resolves in the state: `customer.name` needs state.customer.name. */
export function stateHasField(state: unknown, ref: string): boolean {
  const [head, ...rest] = ref.split('.');
  if (head === undefined) return false;
  const holders = isRecord(state) ? [state] : Array.isArray(state) ? state.filter(isRecord) : [];
  return holders.some((holder) => {
    let at: unknown = holder;
    for (const part of [head, ...rest]) {
      if (!isRecord(at) || !Object.hasOwn(at, part)) return false;
      at = at[part];
    }
    return true;
  });
}
