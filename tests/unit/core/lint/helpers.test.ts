// The lint helpers the editor also uses (state fields, backtick names, duplicate keys) and the rules' word tests.
import { describe, expect, it } from 'vitest';
import { backtickFields, duplicateKeys, stateFieldNames } from '../../../../src/core/lint';
import { stateHasField } from '../../../../src/core/lint/stateFields';
import { isNumericLevel } from '../../../../src/core/lint/rules/numericLevel';
import { exactQuantityPhrase } from '../../../../src/core/lint/rules/exactQuantity';
import { mentionsField } from '../../../../src/core/lint/rules/fieldRefs';
import { descriptionTemplate } from '../../../../src/core/lint/rules/taxonomyDump';

describe('stateFieldNames', () => {
  it("lists an object state's keys, the union of keys in an array state, and nothing for text", () => {
    expect(stateFieldNames({ claim: 1, quote: null })).toEqual(['claim', 'quote']);
    expect(stateFieldNames([{ a: 1 }, 'x', { b: 2, a: 3 }])).toEqual(['a', 'b']);
    expect(stateFieldNames('text')).toEqual([]);
    expect(stateFieldNames(undefined)).toEqual([]);
  });
  it('resolves dotted references into nested fields', () => {
    expect(stateHasField({ customer: { name: 'x' } }, 'customer.name')).toBe(true);
    expect(stateHasField({ customer: { name: 'x' } }, 'customer.id')).toBe(false);
    expect(stateHasField({ customer: 'x' }, 'customer.name')).toBe(false);
    expect(stateHasField([{ a: 1 }, { b: 2 }], 'b')).toBe(true);
  });
});

describe('backtickFields', () => {
  it('finds identifier-like names in backticks, once each, in order', () => {
    expect(backtickFields('Does `quote` support `claim`? Compare `quote` with `customer.name`.')).toEqual([
      'quote',
      'claim',
      'customer.name',
    ]);
  });
  it('ignores quoted phrases, numbers and unclosed backticks', () => {
    expect(backtickFields('Say `not a field` or `42` or `x-y` then `open')).toEqual(['x-y']);
  });
});

describe('duplicateKeys', () => {
  it('finds repeated question names at the top level, marking the one a parser keeps', () => {
    const text = '{\n  "a": {"type": "noul"},\n  "b": {"a": 1, "a": 2},\n  "a": {"type": "choice"}\n}';
    const found = duplicateKeys(text);
    expect(found.map((d) => [d.name, text.slice(d.offset, d.offset + d.length), d.kept, d.path])).toEqual([
      ['a', '"a"', false, []],
      ['a', '"a"', true, []],
    ]);
    expect(found[0]!.offset).toBe(text.indexOf('"a"'));
    expect(found[1]!.offset).toBe(text.lastIndexOf('"a"'));
  });
  it('finds nested repeats with allLevels, and repeats in text cut off mid-typing', () => {
    expect(
      duplicateKeys('{"q": {"criteria": {"x": 1, "x": 2}}}', { allLevels: true }).map((d) => d.path),
    ).toEqual([
      ['q', 'criteria'],
      ['q', 'criteria'],
    ]);
    expect(duplicateKeys('{"a": 1, "b": [{"a": 1}], "a": {').map((d) => d.name)).toEqual(['a', 'a']);
    expect(duplicateKeys('{"a": 1, "b": 2}')).toEqual([]);
    expect(duplicateKeys('')).toEqual([]);
  });
});

describe('isNumericLevel', () => {
  it.each(['3', '3.', '(3)', '3/5', '-1', '10%', 'Level 3', 'three', '3 out of 5', '4 stars', ' 2 '])(
    '"%s" is numeric',
    (level) => {
      expect(isNumericLevel(level)).toBe(true);
    },
  );
  it.each(['3 - good', 'Good', 'Calm, just stating facts', 'Level 3: mostly correct', 'Top 3 issue', ''])(
    '"%s" is not numeric',
    (level) => {
      expect(isNumericLevel(level)).toBe(false);
    },
  );
});

describe('exactQuantityPhrase', () => {
  it.each([
    ['How many items were returned?', 'How many'],
    ['State the exact amount refunded.', 'exact amount'],
    ['Give the precise number of days.', 'precise number'],
    ['Report the refund to the cent.', 'to the cent'],
    ['Count the complaints.', 'Count the'],
    ['How much money did they lose?', 'How much money'],
  ])('%s -> %s', (text, phrase) => {
    expect(exactQuantityPhrase(text)).toBe(phrase);
  });
  it.each([
    'How much does the customer care?',
    'Is the wording precise?',
    'It lists a number of reasons.',
    'Is it urgent?',
  ])('no phrase in "%s"', (text) => {
    expect(exactQuantityPhrase(text)).toBeNull();
  });
});

describe('mentionsField', () => {
  it('matches whole words in any spelling, ignoring case', () => {
    expect(mentionsField('Is the Customer Name polite?', 'customer_name')).toBe(true);
    expect(mentionsField('Is the customer-name polite?', 'customerName')).toBe(true);
    expect(mentionsField('Is the message urgent?', 'message')).toBe(true);
    expect(mentionsField('Are the messages urgent?', 'message')).toBe(false);
    expect(mentionsField('Is it urgent?', 'id')).toBe(false);
  });
});

describe('descriptionTemplate', () => {
  it('folds the label, numbers, case and punctuation', () => {
    expect(descriptionTemplate('Shoes', 'Items in the SHOES category (12).')).toBe(
      'items in the <label> category #',
    );
  });
});
