// The runner's parts alone (issue 42): the book restores stored outcomes, the control keeps the first halt and stops
// after a failing streak, the budget counts reserved tokens against the cap.
import { describe, expect, it } from 'vitest';
import { estimateCost } from '../../../../src/contract';
import type { RowOutcome } from '../../../../src/core/rows/records';
import type { PlannedRow } from '../../../../src/core/rows/runPlan';
import { RunBook } from '../../../../src/core/rows/runBook';
import { RunBudget } from '../../../../src/core/rows/runBudget';
import { FAILING_STREAK, RunControl } from '../../../../src/core/rows/runControl';

const rows = (n: number): PlannedRow[] =>
  Array.from({ length: n }, (_, i) => ({
    number: i + 1,
    line: i + 2,
    id: `id-${i + 1}`,
    state: 's',
    tokens: 100,
  }));
const outcome = (status: RowOutcome['status']): RowOutcome => ({
  status,
  at: 0,
  attempts: 1,
  possiblyBilledAttempts: 0,
  requeues: 0,
});

describe('RunBook', () => {
  it('queues rows without an outcome or pending, and turns a row caught sending into an unknown one', () => {
    const stored = new Map([
      [1, outcome('done')],
      [2, outcome('pending')],
      [3, outcome('sending')],
    ]);
    const book = new RunBook(rows(4), stored);
    expect(book.queue).toEqual([2, 4]);
    expect(book.interrupted).toEqual([3]);
    expect(book.outcomes.get(3)).toMatchObject({ status: 'unknown', possiblyBilledAttempts: 1 });
    expect(book.outcomes.get(3)!.error).toMatchObject({ kind: 'interrupted', possiblyBilled: true });
    expect(book.retryable()).toEqual({ failed: [], unknown: [3] });
  });

  it('moves the tallies and tells its listeners when an outcome changes', () => {
    const book = new RunBook(rows(2), undefined);
    const seen: number[] = [];
    const stop = book.subscribe((u) => seen.push(u.number));
    book.setOutcome(book.rows.get(1)!, outcome('failed'));
    book.setOutcome(book.rows.get(1)!, outcome('done'));
    stop();
    book.setOutcome(book.rows.get(2)!, outcome('done'));
    expect(seen).toEqual([1, 1]);
    expect(book.tally.counts.done).toBe(2);
    expect(book.tally.counts.failed).toBe(0);
    expect(book.pending).toBe(0);
  });
});

describe('RunControl', () => {
  it('keeps the first halt, lets a cancel win over it, and ends halted', () => {
    const control = new RunControl();
    const signal = control.begin();
    expect(() => control.begin()).toThrow(/already going/);
    control.halt({ reason: 'budget', message: 'cap' });
    control.halt({ reason: 'storage', message: 'disk' });
    expect(signal.aborted).toBe(true);
    expect(control.halted?.reason).toBe('budget');
    control.requestStop('cancelling', { reason: 'cancelled', message: 'stop' });
    expect(control.halted?.reason).toBe('cancelled');
    control.end(true);
    expect(control.phase).toBe('halted');
  });

  it(`halts after ${FAILING_STREAK} failures in a row, not when one answer breaks the streak`, () => {
    const control = new RunControl();
    control.begin();
    for (let i = 0; i < FAILING_STREAK - 1; i++) control.bumpStreak('529');
    control.resetStreak();
    for (let i = 0; i < FAILING_STREAK - 1; i++) control.bumpStreak('529');
    expect(control.halted).toBeNull();
    control.bumpStreak('529');
    expect(control.halted).toMatchObject({ reason: 'failing' });
    expect(control.halted!.message).toMatch(/last: 529/);
  });

  it('wakes every waiter at the next poke, and finishes when nothing is left', async () => {
    const control = new RunControl();
    control.begin();
    const woken: string[] = [];
    const a = control.wake.next().then(() => woken.push('a'));
    const b = control.wake.next().then(() => woken.push('b'));
    control.wake.poke();
    await Promise.all([a, b]);
    expect(woken.sort()).toEqual(['a', 'b']);
    control.end(true);
    expect(control.phase).toBe('finished');
  });
});

describe('RunBudget', () => {
  it('counts reserved tokens against the cap until they are released', () => {
    const price = 3;
    const book = new RunBook(rows(1), undefined);
    const budget = new RunBudget(estimateCost(250, price), price);
    expect(budget.wouldPass(200, book.tally)).toBe(false);
    budget.reserve(100);
    expect(budget.wouldPass(200, book.tally)).toBe(true);
    budget.release(100);
    expect(budget.wouldPass(200, book.tally)).toBe(false);
  });

  it('holds no cap when the price is unknown', () => {
    const budget = new RunBudget(0.000001, null);
    expect(budget.wouldPass(1_000_000, new RunBook(rows(1), undefined).tally)).toBe(false);
    expect(budget.cost(1_000_000)).toBe(0);
  });
});
