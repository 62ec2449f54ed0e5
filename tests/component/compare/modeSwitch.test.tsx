import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CompareModeSwitch } from '../../../src/app/features/compare/CompareModeSwitch';
import { compareInSearch } from '../../../src/app/stores/compareViewParam';
import { useCompare } from '../../../src/app/stores/compare';

afterEach(() => {
  useCompare.getState().setOpen(false);
  history.replaceState(null, '', '/');
});

describe('compare mode switch', () => {
  it('switches with the keyboard and keeps the mode in the address, with the rest of the URL', async () => {
    const user = userEvent.setup();
    history.replaceState(null, '', '/?x=1#share=v1.abc');
    render(<CompareModeSwitch />);
    const answers = screen.getByRole('radio', { name: 'Answers' });
    expect(answers).toBeChecked();
    answers.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Compare' })).toBeChecked();
    expect(useCompare.getState().open).toBe(true);
    expect(compareInSearch(location.search)).toBe(true);
    expect(new URLSearchParams(location.search).get('x')).toBe('1');
    expect(location.hash).toBe('#share=v1.abc');

    await user.click(screen.getByRole('radio', { name: 'Answers' }));
    expect(useCompare.getState().open).toBe(false);
    expect(location.search).toBe('?x=1');
  });

  it('reads compare mode from an address', () => {
    expect(compareInSearch('?view=compare')).toBe(true);
    expect(compareInSearch('?view=single')).toBe(false);
    expect(compareInSearch('')).toBe(false);
  });
});
