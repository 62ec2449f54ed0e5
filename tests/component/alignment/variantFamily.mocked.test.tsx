// Every variant counted and the sealed rows, on a run answered by the real reference over loopback and three variants
// of it, in a real rows store over fake-indexeddb and a sessions store holding the ledger. At the store: the sealed
// rows never reach the figures, comparisons or family computed for the alignment screen, and only they reach a
// confirmation. In the Variants panel: the best-of sentence and each variant's adjusted interval, counted with a
// deleted variant.
import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Questions } from '../../../src/contract';
import { abortableSleep, evaluate } from '../../../src/client';
import { newId } from '../../../src/core/ids';
import { unpackTable } from '../../../src/core/alignment/table';
import type { PackedTable } from '../../../src/core/alignment/table';
import { sealOf, variantsTried } from '../../../src/core/alignment/ledger';
import type { RowItem, RowRun } from '../../../src/core/rows/records';
import { appDb } from '../../../src/app/persistence/db';
import { RowsRepo } from '../../../src/app/persistence/rowsRepo';
import { createInlineParser } from '../../../src/app/workers/rowsParser';
import { createRowsStore } from '../../../src/app/stores/rows';
import type * as RowsStoreModule from '../../../src/app/stores/rows';
import { useSessions } from '../../../src/app/stores/sessions';
import { replaceAlignmentComputer, useAlignment } from '../../../src/app/features/alignment/alignmentStore';
import { createAlignmentComputer } from '../../../src/app/features/alignment/alignmentComputer';
import type { AlignmentComputer } from '../../../src/app/features/alignment/alignmentComputer';
import { useVariantFamily } from '../../../src/app/features/alignment/variantFamilyStore';
import { serveReference } from '../../../src/server/reference/serve';
import type { RunningReference } from '../../../src/server/reference/serve';
import { DEFAULT_API_KEY } from '../../../src/server/reference/options';
import { storedRun } from '../../helpers/fixtures';
import { sampleSession } from '../../helpers/sessions';

// The panel reads the app's rows store; the test gives it a store over the app's database and the test reference.
const holder = vi.hoisted(() => ({ store: null as unknown }));
vi.mock('../../../src/app/stores/rows', async (importOriginal) =>
  (await import('../../helpers/heldRowsStore')).heldRowsStore(
    await importOriginal<typeof RowsStoreModule>(),
    holder,
  ),
);

const { VariantsPanel } = await import('../../../src/app/features/alignment/VariantsPanel');

let reference: RunningReference;
beforeAll(async () => {
  reference = await serveReference({ rpm: 1e9, tps: 1e12 });
});
afterAll(() => reference.close());

const wording = (instructions: string): Questions => ({
  department: {
    type: 'choice',
    instructions,
    criteria: { billing: 'Payments and refunds', technical: 'Crashes and bugs', sales: 'Prices and quotes' },
  },
});
const TEXTS: [string, string][] = [
  ['I was charged twice, please refund me', 'billing'],
  ['The app crashes when I open settings', 'technical'],
  ['How much is the yearly plan?', 'sales'],
  ['My card payment failed at checkout', 'billing'],
  ['The page shows an error after login', 'technical'],
  ['Can I get a quote for fifty seats?', 'sales'],
];
const ROWS = 36;
const run: RowRun = storedRun({
  id: 'run-family',
  fileName: 'tickets.csv',
  columns: ['id', 'text', 'human'],
  questions: wording('Which team should answer?'),
  rowCount: ROWS,
  mapping: {
    mode: 'text',
    column: 'text',
    idColumn: 'id',
    labels: [{ column: 'human', question: 'department', levelBase: 0, values: {} }],
  },
});
const items: RowItem[] = Array.from({ length: ROWS }, (_, i) => {
  const [text, label] = TEXTS[i % TEXTS.length]!;
  // Every seventh row is labelled against the text's obvious team: the judge cannot be right everywhere.
  const human = i % 7 === 3 ? 'sales' : label;
  return {
    runId: run.id,
    number: i + 1,
    line: i + 2,
    id: `t${i + 1}`,
    data: { id: `t${i + 1}`, text: `${text} (ticket ${i + 1})`, human },
    tokens: 10,
    labels: { department: human },
  };
});

/** What reached the computer: each request's kind and the row ids of every table it carried. */
const seen: { kind: string; ids: string[][] }[] = [];
const idsOf = (t: PackedTable): string[] => unpackTable(t).ids.toArray();
function recordingComputer(inner: AlignmentComputer): AlignmentComputer {
  const note = (kind: string, tables: PackedTable[]): void => {
    seen.push({ kind, ids: tables.map(idsOf) });
  };
  return {
    report: (r) => {
      note('report', [r.table]);
      return inner.report(r);
    },
    compare: (r) => {
      note('compare', [r.a.table, r.b.table]);
      return inner.compare(r);
    },
    family: (r) => {
      note('family', [r.base.table, ...r.variants.map((v) => v.table)]);
      return inner.family(r);
    },
  };
}

let store: ReturnType<typeof createRowsStore>;
const variantIds: string[] = [];
beforeAll(async () => {
  await new RowsRepo(appDb()).createRun(run, items);
  store = createRowsStore({
    repo: new RowsRepo(appDb()),
    parser: createInlineParser,
    evaluate,
    clock: { now: () => Date.now(), sleep: abortableSleep },
    targetFor: () => ({ baseUrl: reference.url, headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } }),
    newId,
    flushMs: 20,
  });
  holder.store = store;
  useSessions.setState({ open: sampleSession() });
  await store.getState().openRunById(run.id);
  await store.getState().start();
  useVariantFamily.getState().record(store.getState().openRun!, store.getState().runs, true);
  for (const words of [
    'Route the ticket.',
    'Which team owns this?',
    'Pick the department.',
    'Who answers?',
  ]) {
    await store.getState().openRunById(run.id);
    const id = await store.getState().createVariant({
      questions: wording(words),
      model: run.model,
      targetId: run.targetId,
    });
    await store.getState().start();
    variantIds.push(id!);
    useVariantFamily.getState().record(store.getState().openRun!, store.getState().runs, true);
  }
  replaceAlignmentComputer(recordingComputer(createAlignmentComputer()));
}, 60_000);
afterAll(() => replaceAlignmentComputer(null));

describe('the sealed rows, at the store', () => {
  it('never reach the figures, comparisons or family of the alignment screen, and alone reach a confirmation', async () => {
    const open = store.getState().openRun!;
    const results = store.getState().results();
    useVariantFamily.getState().seal(open, results, 0.2, 7);
    const seal = useSessions.getState().open!.ledger!.seals[0]!;
    expect(sealOf(useSessions.getState().open!.ledger!, seal.setKey)).toBe(seal);
    expect(seal.setKey.startsWith(`${run.id}:`)).toBe(true);
    // 20% of each label's rows (stratified), drawn once: a second seal is refused.
    expect(seal.ids.length).toBeGreaterThanOrEqual(6);
    expect(seal.ids.length).toBeLessThanOrEqual(9);
    useVariantFamily.getState().seal(open, results, 0.2, 8);
    expect(useVariantFamily.getState().error).toMatch(/already sealed/);
    expect(useSessions.getState().open!.ledger!.seals).toHaveLength(1);

    seen.length = 0;
    await useAlignment.getState().compute(open, results, 1);
    await useAlignment.getState().compare(open, results, run.id, 1);
    await useVariantFamily.getState().compute(open, results, store.getState().runs);
    expect(seen.map((s) => s.kind)).toEqual(['report', 'compare', 'family']);
    const sealed = new Set(seal.ids);
    for (const request of seen)
      for (const ids of request.ids) {
        expect(ids.filter((id) => sealed.has(id))).toEqual([]);
        expect(ids).toHaveLength(ROWS - seal.ids.length);
      }
    expect(useAlignment.getState().report!.questions.department!.labelled).toBe(ROWS - seal.ids.length);

    seen.length = 0;
    await useVariantFamily.getState().confirm(open, results, store.getState().runs, variantIds[1]!);
    expect(seen).toHaveLength(1);
    for (const ids of seen[0]!.ids) expect([...ids].sort()).toEqual([...seal.ids].sort());
    const ledger = useSessions.getState().open!.ledger!;
    expect(variantsTried(ledger, seal.setKey, 'confirm')).toBe(1);
    expect(useVariantFamily.getState().confirmation).toMatchObject({
      variantId: variantIds[1],
      confirmations: 1,
    });
  });
});

describe('the Variants panel', () => {
  it('reads the best-of sentence and each variant’s adjusted interval, a deleted variant still counted', async () => {
    // One of the four variants is deleted: the ledger keeps counting it.
    await store.getState().deleteRun(variantIds[3]!);
    await store.getState().openRunById(variantIds[0]!);
    const open = store.getState().openRun!;
    // What the store test computed is of another set of runs: the panel computes its own.
    useVariantFamily.setState({ of: null, families: null, count: null });
    render(
      <VariantsPanel
        run={open}
        runs={store.getState().runs}
        compareWith={null}
        comparison={null}
        comparing={null}
        onCompare={() => {}}
        onRunVariant={() => {}}
        blocked={null}
      />,
    );
    await waitFor(
      () =>
        expect(screen.getByTestId('align.family.count').textContent).toMatch(/1 variant of them was deleted/),
      { timeout: 10_000 },
    );
    const sentence = screen.getByTestId('align.family.sentence.department');
    expect(sentence.textContent).toMatch(/The best of 4 variants gains [+−]?\d\.\d\d kappa; /);
    expect(sentence.textContent).toMatch(/picking the best of 4 by luck alone gives/);
    expect(screen.getByTestId('align.family.count').textContent).toMatch(
      /^4 variants of the first run counted .* 1 variant of them was deleted: .* Šidák’s critical value for 4/,
    );
    const table = within(screen.getByTestId('align.family.department'));
    expect(table.getByText('95% CI adjusted for 4 variants')).toBeTruthy();
    const rows = table.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    // Each adjusted interval is wider than the pair's own.
    for (const [k, row] of rows.entries()) {
      const cells = within(row).getAllByRole('cell');
      const width = (text: string) => {
        const [lo, hi] = text.replace(/−/g, '-').split(' to ').map(Number);
        return hi! - lo!;
      };
      expect(cells[2]!.textContent).toBe(
        screen.getByTestId(`align.family.adjusted.department.${k}`).textContent,
      );
      expect(width(cells[2]!.textContent!)).toBeGreaterThanOrEqual(width(cells[1]!.textContent!));
    }
    // The seal drawn above is shown, the sealed rows' labels are not: one confirmation counted.
    expect(screen.getByTestId('align.seal.summary').textContent).toMatch(/labelled rows sealed \(20%/);
    expect(screen.getByTestId('align.confirm.count').textContent).toMatch(/^1 variant confirmed/);
    await waitFor(() => expect(useVariantFamily.getState().computing).toBe(false));
  });
});
