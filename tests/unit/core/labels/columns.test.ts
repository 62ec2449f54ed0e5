// The labels module is the one reader of label columns: the page (rows/labels, rows/mapping) and the command line
// (cli/run's figures, cli/inputs' mapping) get the same labels and leave out the same columns.
import { describe, expect, it } from 'vitest';
import type { Questions } from '../../../../src/contract';
import { excludedColumns, labelColumnsOf, readRowLabels } from '../../../../src/core/labels';
import { rowLabels } from '../../../../src/core/rows/labels';
import { leftOutColumns, mapRow } from '../../../../src/core/rows/mapping';
import { mappingFor, parseMapSpec } from '../../../../src/cli/inputs';

const questions: Questions = {
  team: { type: 'choice', instructions: 'Which team?', criteria: { billing: null, technical: null } },
  urgent: { type: 'noul', instructions: 'Is it urgent?' },
};
const row = { id: 'r1', text: 'My card was charged twice', team: ' Billing ', urgent: 'yes', source: 'mail' };

describe('label columns', () => {
  it('reads a row’s labels by question, as the page does', () => {
    const columns = labelColumnsOf({ team: 'team', urgent: 'urgent' });
    expect(readRowLabels(row, columns, questions)).toEqual({ labels: { team: 'billing', urgent: true } });
    expect(readRowLabels(row, columns, questions)).toEqual(
      rowLabels(row, { mode: 'fields', idColumn: 'id', labels: columns }, questions),
    );
    expect(readRowLabels('plain text', columns, questions)).toEqual({});
    expect(readRowLabels({ team: 'nobody' }, columns, questions)).toEqual({});
  });

  it('leaves label and metadata columns out of the state, on the page and on the command line alike', () => {
    const labels = labelColumnsOf({ team: 'team', urgent: 'urgent' });
    const page = { mode: 'fields' as const, idColumn: 'id', labels, metadata: ['source'] };
    expect([...excludedColumns(page)]).toEqual(['team', 'urgent', 'source']);
    expect(leftOutColumns(page)).toEqual(excludedColumns(page));
    const cli = mappingFor(
      parseMapSpec(['label.team=team', 'label.urgent=urgent', 'meta=source', 'id=id']),
      Object.keys(row),
      true,
    );
    expect(cli).toEqual({ mode: 'columns', columns: ['text'], idColumn: 'id' });
    expect(mapRow(row, cli)).toEqual(mapRow(row, page));
  });
});
