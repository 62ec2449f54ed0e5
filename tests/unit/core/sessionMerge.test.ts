// The revision check and merge of a session saved from two tabs: examples of each rule, and a property over random
// interleavings of two writers (edits, saves whose write lands later, following the other tab) checking that no
// acknowledged write is lost: every piece of text a completed save carried is in the final record or in a copy.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_REQUEST, exampleDoc } from '../../../src/core/example';
import type { RunRecord, Session } from '../../../src/core/session';
import { SESSION_SCHEMA_VERSION } from '../../../src/core/session';
import type { SaveBase } from '../../../src/core/sessionMerge';
import {
  conflictCopyName,
  describeConflict,
  mergeSessions,
  resolveSave,
} from '../../../src/core/sessionMerge';
import { recordVariant, EMPTY_LEDGER } from '../../../src/core/alignment/ledger';
import type { LedgerEntry } from '../../../src/core/alignment/ledger';

const base: Session = {
  schemaVersion: SESSION_SCHEMA_VERSION,
  id: 's1',
  name: 'Tickets',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  doc: exampleDoc('local'),
  runs: [],
  revision: 3,
};
const run = (id: string): RunRecord => ({
  id,
  at: '2026-01-01T00:00:00.000Z',
  targetId: 'local',
  request: EXAMPLE_REQUEST,
  attempts: [],
});
const withDoc = (s: Session, doc: Partial<Session['doc']>): Session => ({ ...s, doc: { ...s.doc, ...doc } });
let ids = 0;
const newId = () => `copy-${++ids}`;

describe('resolveSave', () => {
  it('writes a save made from the stored revision as it is, one revision on', () => {
    const mine = withDoc(base, { stateText: 'mine' });
    const out = resolveSave(base, { session: base, revision: 3 }, mine, newId);
    expect(out).toEqual({ record: { ...mine, revision: 4 }, merged: false, conflicts: [] });
  });

  it('merges disjoint changes: the state from one tab, the questions from the other, and both runs', () => {
    const theirs = { ...withDoc(base, { questionsText: '{"q": 1}' }), runs: [run('a')], revision: 4 };
    const mine = { ...withDoc(base, { stateText: 'typed here' }), runs: [run('b')] };
    const out = resolveSave(theirs, { session: base, revision: 3 }, mine, newId);
    expect(out.merged).toBe(true);
    expect(out.conflicts).toEqual([]);
    expect(out.copy).toBeUndefined();
    expect(out.record.doc).toMatchObject({ stateText: 'typed here', questionsText: '{"q": 1}' });
    expect(out.record.runs.map((r) => r.id)).toEqual(['a', 'b']);
    expect(out.record.revision).toBe(5);
  });

  it('keeps both versions of a field changed in both tabs: this one in the record, the other as a copy', () => {
    const theirs = { ...withDoc(base, { stateText: 'from the other tab' }), revision: 4 };
    const mine = withDoc(base, { stateText: 'from this tab' });
    const out = resolveSave(theirs, { session: base, revision: 3 }, mine, newId);
    expect(out.conflicts).toEqual(['stateText']);
    expect(out.record.doc.stateText).toBe('from this tab');
    expect(out.copy).toMatchObject({
      name: conflictCopyName('Tickets'),
      doc: { stateText: 'from the other tab' },
    });
    expect(out.copy!.id).not.toBe('s1');
    expect(describeConflict('Tickets', out.conflicts, out.copy!.name)).toBe(
      "“Tickets” was also changed in another tab (the state): this version is kept, and the other as “Tickets (other tab's version)”.",
    );
  });

  it('without a known base, treats every difference as a conflict rather than overwriting', () => {
    const stored = { ...withDoc(base, { model: 'model-1.12.0' }), revision: 9 };
    const out = resolveSave(stored, null, withDoc(base, { model: 'model-preview' }), newId);
    expect(out.conflicts).toEqual(['model']);
    expect(out.copy?.doc.model).toBe('model-1.12.0');
  });

  it('a record that is not stored is written as revision 1', () => {
    expect(resolveSave(undefined, null, base, newId).record.revision).toBe(1);
  });

  it('a comparison changed in one tab survives a state edit in the other', () => {
    const compare = {
      columns: [
        { id: 'c1', targetId: 'local', model: 'model-1.12.0' },
        { id: 'c2', targetId: 'local', model: 'model-1.13.0' },
      ],
      threshold: 0.2,
      runIds: {},
    };
    const { merged, conflicts } = mergeSessions(base, withDoc(base, { stateText: 'x' }), {
      ...base,
      compare,
    });
    expect(conflicts).toEqual([]);
    expect(merged.compare).toEqual(compare);
    expect(merged.doc.stateText).toBe('x');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Two writers over one stored record, as the sessions store drives them.

type Field = 'name' | 'stateText' | 'questionsText';
type Op =
  | { kind: 'edit'; w: 0 | 1; field: Field }
  | { kind: 'addRun'; w: 0 | 1 }
  | { kind: 'begin'; w: 0 | 1 }
  | { kind: 'end'; w: 0 | 1 }
  | { kind: 'follow'; w: 0 | 1 };

interface Writer {
  local: Session;
  base: SaveBase;
  dirty: boolean;
  /** A save whose write has not landed yet: the content it carries. */
  inFlight: Session | null;
}

const fieldText = (s: Session, f: Field): string => (f === 'name' ? s.name : s.doc[f]);
const setField = (s: Session, f: Field, v: string): Session =>
  f === 'name' ? { ...s, name: v } : { ...s, doc: { ...s.doc, [f]: v } };

function simulate(ops: readonly Op[]) {
  let stored: Session = { ...base, revision: 1 };
  const copies: Session[] = [];
  const acknowledged = new Set<string>();
  const writers: Writer[] = [0, 1].map(() => ({
    local: stored,
    base: { session: stored, revision: 1 },
    dirty: false,
    inFlight: null,
  }));
  let token = 0;
  const land = (w: Writer): void => {
    const sent = w.inFlight!;
    w.inFlight = null;
    const out = resolveSave(stored, w.base, sent, () => `copy-${copies.length + 1}`);
    stored = out.record;
    if (out.copy) copies.push(out.copy);
    for (const f of ['name', 'stateText', 'questionsText'] as const)
      for (const t of fieldText(sent, f).match(/<\d+>/g) ?? []) acknowledged.add(t);
    for (const r of sent.runs) acknowledged.add(`run:${r.id}`);
    // As the store does: unchanged since the save, the tab shows what was stored; else it rebases on what it sent.
    if (w.local === sent) {
      w.local = stored;
      w.base = { session: stored, revision: stored.revision! };
      w.dirty = false;
    } else w.base = { session: sent, revision: out.merged ? -1 : stored.revision! };
  };
  for (const op of ops) {
    const w = writers[op.w]!;
    switch (op.kind) {
      case 'edit':
        w.local = setField(w.local, op.field, `${fieldText(w.local, op.field)}<${++token}>`);
        w.dirty = true;
        break;
      case 'addRun':
        w.local = { ...w.local, runs: [...w.local.runs, run(`r${++token}`)] };
        w.dirty = true;
        break;
      case 'begin':
        if (!w.inFlight && w.dirty) w.inFlight = w.local;
        break;
      case 'end':
        if (w.inFlight) land(w);
        break;
      case 'follow':
        // Another tab saved: a tab with nothing unsaved shows the stored record.
        if (!w.dirty && !w.inFlight) {
          w.local = stored;
          w.base = { session: stored, revision: stored.revision! };
        }
        break;
    }
  }
  // Both tabs flush what they have.
  for (const w of writers) {
    if (w.inFlight) land(w);
    if (w.dirty) {
      w.inFlight = w.local;
      land(w);
    }
  }
  return { stored, copies, acknowledged };
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('edit' as const),
    w: fc.constantFrom(0 as const, 1 as const),
    field: fc.constantFrom<Field>('name', 'stateText', 'questionsText'),
  }),
  fc.record({ kind: fc.constant('addRun' as const), w: fc.constantFrom(0 as const, 1 as const) }),
  fc.record({ kind: fc.constant('begin' as const), w: fc.constantFrom(0 as const, 1 as const) }),
  fc.record({ kind: fc.constant('end' as const), w: fc.constantFrom(0 as const, 1 as const) }),
  fc.record({ kind: fc.constant('follow' as const), w: fc.constantFrom(0 as const, 1 as const) }),
);

describe('two writers, any interleaving', () => {
  it('loses no acknowledged write: every saved token is in the record or a copy, and every saved run in the record', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const { stored, copies, acknowledged } = simulate(ops);
        const everywhere = [stored, ...copies]
          .map((s) => `${s.name}|${s.doc.stateText}|${s.doc.questionsText}`)
          .join('\n');
        const runs = new Set(stored.runs.map((r) => `run:${r.id}`));
        for (const t of acknowledged) {
          if (t.startsWith('run:')) expect(runs.has(t), t).toBe(true);
          else expect(everywhere.includes(t), t).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('makes no copy when the two tabs never change the same field', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        // Writer 0 only edits the state, writer 1 only the questions.
        const disjoint = ops.map((op) =>
          op.kind === 'edit'
            ? { ...op, field: op.w === 0 ? ('stateText' as const) : ('questionsText' as const) }
            : op,
        );
        const { copies, stored, acknowledged } = simulate(disjoint);
        expect(copies).toEqual([]);
        for (const t of acknowledged)
          if (!t.startsWith('run:'))
            expect(`${stored.doc.stateText}${stored.doc.questionsText}`).toContain(t);
      }),
      { numRuns: 300 },
    );
  });
});

describe('fields the merge does not name', () => {
  it('merges a field added to the record later (a robustness report) by the same rule', () => {
    const report = { reportOf: 'theirs' } as unknown as Session['robustness'];
    const theirs = { ...base, robustness: report, revision: 4 };
    const mine = withDoc(base, { stateText: 'typed here' });
    const out = resolveSave(theirs, { session: base, revision: 3 }, mine, newId);
    expect(out.conflicts).toEqual([]);
    expect(out.record.robustness).toEqual(report);
    expect(out.record.doc.stateText).toBe('typed here');
  });
});

describe('the variant ledger across tabs', () => {
  const entry = (runId: string, variantKey: string): LedgerEntry => ({
    runId,
    at: '2026-11-28T10:00:00.000Z',
    setKey: 'set',
    rows: 300,
    questions: ['department'],
    variantKey,
    purpose: 'explore',
  });

  it('keeps every variant either tab counted, without a conflict', () => {
    const mine: Session = { ...base, ledger: recordVariant(EMPTY_LEDGER, entry('a', 'v1')) };
    const theirs: Session = { ...base, ledger: recordVariant(EMPTY_LEDGER, entry('b', 'v2')) };
    const { merged, conflicts } = mergeSessions(base, mine, theirs);
    expect(conflicts).toEqual([]);
    expect(merged.ledger!.entries.map((e) => e.runId).sort()).toEqual(['a', 'b']);
  });

  it('keeps the stored seal of a set when both tabs drew one', () => {
    const seal = (seed: number) => ({ setKey: 'set', share: 0.2, seed, ids: [`r${seed}`], at: '' });
    const mine: Session = { ...base, ledger: { entries: [], seals: [seal(1)] } };
    const theirs: Session = { ...base, ledger: { entries: [], seals: [seal(2)] } };
    expect(mergeSessions(base, mine, theirs).merged.ledger!.seals).toEqual([seal(2)]);
  });
});
