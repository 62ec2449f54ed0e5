// One reading of a labelling key for both cards: Backspace goes back, s skips, an option's key gives its label, and
// a modifier or a key typed into a field is left alone.
import { describe, expect, it } from 'vitest';
import { labelKeyAction, labelOptions } from '../../../../src/app/components/labelKeys';

const options = labelOptions({ type: 'choice', criteria: { billing: null, technical: null } });
const press = (key: string, extra: Partial<{ ctrlKey: boolean; target: EventTarget | null }> = {}) =>
  labelKeyAction({ key, ctrlKey: false, metaKey: false, altKey: false, target: null, ...extra }, options);

describe('labelKeyAction', () => {
  it('goes back, skips and gives by key', () => {
    expect(press('Backspace')).toEqual({ kind: 'back' });
    expect(press('S')).toEqual({ kind: 'skip' });
    expect(press('2')).toEqual({ kind: 'give', value: 'technical' });
    expect(press('9')).toBeNull();
  });

  it('leaves a modifier and a key typed into a field alone', () => {
    expect(press('1', { ctrlKey: true })).toBeNull();
    const field = {
      closest: (selector: string) => (selector.includes('input') ? {} : null),
    } as unknown as EventTarget;
    expect(press('1', { target: field })).toBeNull();
  });
});
