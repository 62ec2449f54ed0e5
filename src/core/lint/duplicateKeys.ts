// Duplicate keys in JSON text: parsing keeps only the last, so they must be found in the text itself.
import { visit } from 'jsonc-parser';

/** One occurrence of a key that appears more than once in the same object. */
export interface DuplicateKey {
  name: string;
  /** Offset and length of the key token in the text, quotes included. */
  offset: number;
  length: number;
  /** Path of the object holding the key ([] for the top level). */
  path: (string | number)[];
  /** True for the last occurrence: the one a JSON parser keeps; the others are silently dropped. */
  kept: boolean;
}

/**
 * Every occurrence of a key repeated within one object, in text order. By default only the top-level object (the
 * question names); with `allLevels`, every object (repeated choice labels, repeated fields in a question).
 */
export function duplicateKeys(text: string, options: { allLevels?: boolean } = {}): DuplicateKey[] {
  // One key list per open object; arrays push null so depth tracking stays aligned.
  const stack: ({ path: (string | number)[]; seen: Map<string, DuplicateKey[]> } | null)[] = [];
  const found: DuplicateKey[] = [];
  const close = (frame: (typeof stack)[number] | undefined): void => {
    if (!frame) return;
    for (const occurrences of frame.seen.values()) {
      if (occurrences.length < 2) continue;
      occurrences[occurrences.length - 1]!.kept = true;
      found.push(...occurrences);
    }
  };
  visit(
    text,
    {
      onObjectBegin: (_offset, _length, _line, _char, pathSupplier) => {
        stack.push({ path: pathSupplier(), seen: new Map() });
      },
      onObjectEnd: () => close(stack.pop()),
      onArrayBegin: () => {
        stack.push(null);
      },
      onArrayEnd: () => {
        stack.pop();
      },
      onObjectProperty: (name, offset, length) => {
        const frame = stack[stack.length - 1];
        if (!frame || (!options.allLevels && stack.length !== 1)) return;
        const list = frame.seen.get(name) ?? [];
        list.push({ name, offset, length, path: frame.path, kept: false });
        frame.seen.set(name, list);
      },
    },
    { allowTrailingComma: true, disallowComments: false },
  );
  // Text cut off mid-typing leaves objects open: their duplicates still count.
  while (stack.length > 0) close(stack.pop());
  return found.sort((a, b) => a.offset - b.offset);
}
