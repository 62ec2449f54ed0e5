// The taxonomy's input: the pasted labels, how to read them, and the instructions. They are part of the session
// document, so the session's autosave, export and share link carry them.
import { useId } from 'react';
import type { TaxonomyDoc } from '../../../core/session';
import { useWorkbench } from '../../stores/workbench';

const FORMATS: readonly { value: TaxonomyDoc['format']; label: string }[] = [
  { value: 'auto', label: 'Detect' },
  { value: 'list', label: 'One label a line' },
  { value: 'indent', label: 'Tree by indentation' },
  { value: 'paths', label: 'Paths (a > b > c)' },
];

const PLACEHOLDER = `One label a line:
Card refund
Bank refund
…

or a tree, by indentation or paths:
Billing > Refunds > Card refund
Billing > Invoices`;

/** The taxonomy of a session that has none yet. */
export const NO_TAXONOMY: TaxonomyDoc = { text: '', format: 'auto', instructions: '' };

const editTaxonomy = (patch: Partial<TaxonomyDoc>): void =>
  useWorkbench
    .getState()
    .editDoc((doc) => ({ ...doc, taxonomy: { ...(doc.taxonomy ?? NO_TAXONOMY), ...patch } }));

export function TaxonomyFields({ taxonomy: { text, format, instructions } }: { taxonomy: TaxonomyDoc }) {
  const ids = { input: useId(), format: useId(), instructions: useId() };
  return (
    <>
      <label htmlFor={ids.input}>Labels</label>
      <textarea
        id={ids.input}
        className="taxonomy-input__text"
        value={text}
        onChange={(e) => editTaxonomy({ text: e.currentTarget.value })}
        placeholder={PLACEHOLDER}
        spellCheck={false}
        rows={14}
        data-testid="taxonomy.input"
      />
      <div className="taxonomy-input__row">
        <label htmlFor={ids.format}>Read as</label>
        <select
          id={ids.format}
          value={format}
          onChange={(e) => editTaxonomy({ format: e.currentTarget.value as TaxonomyDoc['format'] })}
          data-testid="taxonomy.format"
        >
          {FORMATS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </div>
      <label htmlFor={ids.instructions}>Instructions</label>
      <input
        id={ids.instructions}
        type="text"
        value={instructions}
        onChange={(e) => editTaxonomy({ instructions: e.currentTarget.value })}
        placeholder="Which label fits best?"
        data-testid="taxonomy.instructions"
      />
    </>
  );
}
