// `report --ledger`: a session export's variant ledger read beside a results file. The report counts the variants
// recorded for its labelled set and widens its headline figure's interval for that count; a file that is not an
// export is refused with a sentence.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/cli/inputs';
import { readLedger } from '../../../src/cli/ledgerReport';
import { reportCommand } from '../../../src/cli/report';
import { sidakCritical } from '../../../src/core/alignment/countedFamily';
import { EMPTY_LEDGER, recordVariant } from '../../../src/core/alignment/ledger';
import type { LedgerEntry } from '../../../src/core/alignment/ledger';
import type { ResultsHeader } from '../../../src/core/rows/resultsFile';
import { headerLine, resultLine } from '../../../src/core/rows/resultsFile';
import { exportFile } from '../../../src/core/sessionFile';
import { sampleSession } from '../../helpers/sessions';

const dir = mkdtempSync(join(tmpdir(), 'ew-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 40;
const header: ResultsHeader = {
  format: 'evaluate-workbench/results',
  version: 1,
  createdAt: '2026-11-26T00:00:00.000Z',
  rowsFile: 'tickets.csv',
  columns: ['id', 'message', 'human'],
  targetId: 'direct',
  model: 'model-1.13.0',
  questions: { urgent: { type: 'noul', instructions: 'Urgent?' } },
  mapping: { mode: 'text', column: 'message', idColumn: 'id' },
  labels: { urgent: 'human' },
};
const line = (n: number): string =>
  resultLine({
    number: n,
    line: n + 1,
    id: `t-${n}`,
    data: { id: `t-${n}`, message: `m ${n}`, human: n % 2 ? 'yes' : 'no' },
    outcome: { status: 'done', at: 1, attempts: 1, possiblyBilledAttempts: 0, requeues: 0 },
    // Right on every row but each fifth, so accuracy has an interval of some width.
    response: {
      model: 'model-1.13.0',
      answers: { urgent: { type: 'noul', noul: (n % 2 === 1) !== (n % 5 === 0) ? 0.9 : 0.1 } },
      usage: { input_tokens: 5, output_tokens: 0 },
    },
  });
const results = join(dir, 'results.jsonl');
writeFileSync(
  results,
  `${[headerLine(header), ...Array.from({ length: ROWS }, (_, i) => line(i + 1))].join('\n')}\n`,
);

const entry = (
  runId: string,
  variantKey: string,
  purpose: LedgerEntry['purpose'] = 'explore',
): LedgerEntry => ({
  runId,
  at: '2026-11-26T00:00:00.000Z',
  setKey: 'run-1:abc',
  rows: ROWS,
  questions: ['urgent'],
  variantKey,
  purpose,
});

describe('report --ledger', () => {
  it('counts the variants of the report’s labelled set and widens the headline interval by Šidák’s value', () => {
    let ledger = EMPTY_LEDGER;
    for (let k = 0; k < 5; k++) ledger = recordVariant(ledger, entry(`r${k}`, `v${k}`));
    ledger = recordVariant(ledger, entry('r1', 'v1', 'confirm'));
    // Another set of another size, with more variants: not the report's.
    for (let k = 0; k < 9; k++)
      ledger = recordVariant(ledger, { ...entry(`o${k}`, `w${k}`), setKey: 'other:x', rows: 7 });
    const session = join(dir, 'session.json');
    writeFileSync(session, exportFile([sampleSession({ ledger })]));

    const plain = reportCommand({ results, gates: [], strict: false });
    const reported = reportCommand({ results, gates: [], strict: false, ledger: session });
    expect(plain.lines.join('\n')).not.toMatch(/The ledger of/);
    const counted = reported.lines.find((l) => l.startsWith('The ledger of'))!;
    expect(counted).toContain(
      'counts 5 variants (the first run included) on the labelled set of 40 rows (run-1:abc)',
    );
    expect(counted).toContain('and 1 confirmed on its sealed rows');
    expect(counted).toContain(`critical value ${sidakCritical(5).toFixed(2)}`);
    const acc = reported.figures.get('urgent.accuracy')!;
    const widen = sidakCritical(5) / 1.959963984540054;
    const lo = acc.value! - (acc.value! - acc.lo!) * widen;
    expect(reported.lines).toContain(
      `urgent.accuracy ${acc.value!.toFixed(2)} (95% CI ${acc.lo!.toFixed(2)} to ${acc.hi!.toFixed(2)}; adjusted for 5 variants: ${lo.toFixed(2)} to ${Math.min(acc.value! + (acc.hi! - acc.value!) * widen).toFixed(2)})`,
    );
    expect(lo).toBeLessThan(acc.lo!);
  });

  it('says so when the ledger records nothing', () => {
    const session = join(dir, 'empty.json');
    writeFileSync(session, exportFile([sampleSession()]));
    const reported = reportCommand({ results, gates: [], strict: false, ledger: session });
    expect(reported.lines).toContain(`The ledger of ${session} records no variant: nothing to count.`);
  });

  it('refuses a file that is not a session export, with a sentence', () => {
    expect(() => readLedger(results)).toThrow(InputError);
    expect(() => readLedger(join(dir, 'absent.json'))).toThrow(/cannot be read/);
  });
});
