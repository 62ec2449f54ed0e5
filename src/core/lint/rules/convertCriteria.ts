// Converts criteria written in a near-miss shape into the shape the question's kind takes, when that is lossless.
import type { QuestionType } from '../../../contract';
import { isRecord } from '../../../contract/guards';

/** Choice criteria from a list: ["a", "b"] -> {a: null, b: null}; [{label, description}] -> {label: description}. */
function choiceFromList(list: unknown[]): Record<string, unknown> | null {
  const map: Record<string, unknown> = {};
  for (const item of list) {
    let label: unknown;
    let description: unknown = null;
    if (typeof item === 'string') label = item;
    else if (isRecord(item)) {
      label = item.label ?? item.name ?? item.value ?? item.id;
      description = item.description ?? item.criteria ?? item.text ?? null;
    }
    if (typeof label !== 'string' || label.trim() === '' || Object.hasOwn(map, label)) return null;
    map[label] = description;
  }
  return list.length > 0 ? map : null;
}

/** Score levels from an object of descriptions ({"0": "calm", "1": "angry"}), in key order, when all are text. */
function levelsFromObject(obj: Record<string, unknown>): string[] | null {
  const values = Object.values(obj);
  return values.length > 0 && values.every((v) => typeof v === 'string') ? (values as string[]) : null;
}

/** The criteria in the shape `kind` takes, or null when no lossless conversion exists. Unknown kind: as given. */
export function criteriaFor(kind: QuestionType | null, value: unknown): unknown {
  if (kind === 'choice') return isRecord(value) ? value : Array.isArray(value) ? choiceFromList(value) : null;
  if (kind === 'score') {
    if (Array.isArray(value)) return value;
    return isRecord(value) ? levelsFromObject(value) : null;
  }
  if (kind === 'noul') return isRecord(value) ? value : null;
  return value;
}
