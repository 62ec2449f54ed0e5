// --map label.<question>= names one column, several (one per annotator), or a pattern over the file's columns.
import { describe, expect, it } from 'vitest';
import { headerLabels, InputError, parseMapSpec, resolveLabelColumns } from '../../../src/cli/inputs';

const columns = ['id', 'text', 'ann_a', 'ann_b', 'ann_c', 'urgent'];

describe('label columns on the command line', () => {
  it('takes a question’s label columns repeated or comma-separated, one per annotator', () => {
    const spec = parseMapSpec(['label.team=ann_a', 'label.team=ann_b,ann_c', 'label.urgent=urgent']);
    expect(spec.labels).toEqual({ team: ['ann_a', 'ann_b', 'ann_c'], urgent: ['urgent'] });
    expect(headerLabels(spec.labels)).toEqual({ team: ['ann_a', 'ann_b', 'ann_c'], urgent: 'urgent' });
  });

  it('reads a pattern as the matching columns, in the file’s order', () => {
    const spec = resolveLabelColumns(parseMapSpec(['label.team=ann_*']), columns);
    expect(spec.labels).toEqual({ team: ['ann_a', 'ann_b', 'ann_c'] });
  });

  it('says so when a pattern matches nothing or a column is named twice', () => {
    expect(() => resolveLabelColumns(parseMapSpec(['label.team=rater_*']), columns)).toThrow(
      /label.team=rater_\* matches no column/,
    );
    expect(() =>
      resolveLabelColumns(parseMapSpec(['label.team=ann_*', 'label.team=ann_a']), columns),
    ).toThrow(InputError);
  });
});
