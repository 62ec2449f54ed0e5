// Label edits on one row: a plain edit as before, an annotator's edit kept apart with the row's label their majority
// in stored order, a plain label kept as an annotator of its own, and a clear of a label never given changing nothing.
import { describe, expect, it } from 'vitest';
import { UNNAMED_ANNOTATOR, applyLabelEdits } from '../../../../src/core/labels/labelEdits';

describe('applyLabelEdits', () => {
  it('sets and clears a plain label and leaves the annotations alone', () => {
    const row = { labels: { team: 'sales' }, annotations: { urgent: { ana: true } } };
    expect(applyLabelEdits(row, [{ question: 'team', value: 'billing' }])).toEqual({
      labels: { team: 'billing' },
      annotations: { urgent: { ana: true } },
    });
    expect(applyLabelEdits({ labels: { team: 'sales' } }, [{ question: 'team', value: null }])).toEqual({});
  });

  it('keeps each annotator apart, the stored ones first, and the label their majority', () => {
    const row = { labels: { team: 'sales' }, annotations: { team: { zoe: 'sales', ana: 'billing' } } };
    const after = applyLabelEdits(row, [{ question: 'team', value: 'billing', annotator: 'bob' }]);
    expect(after).toEqual({
      labels: { team: 'billing' },
      annotations: { team: { zoe: 'sales', ana: 'billing', bob: 'billing' } },
    });
    expect(Object.keys(after.annotations!['team']!)).toEqual(['zoe', 'ana', 'bob']);
    // Back to a tie of zoe and ana: zoe is stored first, so her label is the row's again.
    const undone = applyLabelEdits(after, [{ question: 'team', value: null, annotator: 'bob' }]);
    expect(undone).toEqual(row);
  });

  it('keeps a plain label as an annotator named by its column, or unnamed', () => {
    const row = { labels: { team: 'sales', urgent: true } };
    expect(
      applyLabelEdits(row, [{ question: 'team', value: 'billing', annotator: 'ana' }], { team: 'human' }),
    ).toEqual({
      // A tie of the column's label and ana's goes to the column, listed first.
      labels: { team: 'sales', urgent: true },
      annotations: { team: { human: 'sales', ana: 'billing' } },
    });
    expect(applyLabelEdits(row, [{ question: 'urgent', value: false, annotator: 'ana' }])).toEqual({
      labels: { team: 'sales', urgent: true },
      annotations: { urgent: { [UNNAMED_ANNOTATOR]: true, ana: false } },
    });
  });

  it('changes nothing when an annotator clears a label they never gave', () => {
    const row = { labels: { team: 'sales' }, annotations: { urgent: { ana: true } } };
    expect(applyLabelEdits(row, [{ question: 'team', value: null, annotator: 'ana' }])).toBe(row);
    expect(applyLabelEdits(row, [{ question: 'urgent', value: null, annotator: 'bob' }])).toBe(row);
    expect(applyLabelEdits(row, [{ question: 'urgent', value: null, annotator: 'ana' }])).toEqual({
      labels: { team: 'sales' },
    });
  });
});
