// The threshold slider of a yes/no question as a person moves it: each move re-reads the figures from the report's
// grid, and nothing certifies a threshold or splits the file's rows again (it did, for every question, on every key:
// about 50 ms of the page's work per key at 100,000 rows). Speed itself is measured by `npm run bench alignment`.
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { Question } from '../../../src/contract';
import { computeAlignment } from '../../../src/core/alignment/compute';
import type * as Queue from '../../../src/core/alignment/labellingQueue';
import type { AlignRow } from '../../../src/core/alignment/types';
import type { RowMapping } from '../../../src/core/rows/mapping';

// Counts the whole-file passes the trust panel makes: certifying a threshold and splitting the rows by one.
const calls = vi.hoisted(() => ({ split: 0, escalation: 0 }));
vi.mock('../../../src/core/alignment/labellingQueue', async (importOriginal) => {
  const original = await importOriginal<typeof Queue>();
  return {
    ...original,
    splitByThreshold: (...args: Parameters<typeof Queue.splitByThreshold>) => {
      calls.split++;
      return original.splitByThreshold(...args);
    },
    escalationThreshold: (...args: Parameters<typeof Queue.escalationThreshold>) => {
      calls.escalation++;
      return original.escalationThreshold(...args);
    },
  };
});

const { QuestionPanel } = await import('../../../src/app/features/alignment/QuestionPanel');
const { useAlignment } = await import('../../../src/app/features/alignment/alignmentStore');

const urgent: Question = { type: 'noul' };
const team: Question = { type: 'choice', criteria: { billing: null, technical: null } };
const mapping: RowMapping = { mode: 'fields', idColumn: null };
// 200 labelled rows: P(yes) spread over [0, 1], the label mostly following it.
const rows: AlignRow[] = Array.from({ length: 200 }, (_, i) => {
  const p = ((i * 37) % 200) / 199;
  return {
    id: String(i + 1),
    labels: { urgent: p > 0.5 !== (i % 9 === 0), team: i % 3 ? 'billing' : 'technical' },
    answers: {
      urgent: { type: 'noul', noul: p },
      team: {
        type: 'choice',
        choice: i % 4 ? 'billing' : 'technical',
        confidence: 0.5,
        probabilities: i % 4 ? { billing: 0.8, technical: 0.2 } : { billing: 0.3, technical: 0.7 },
      },
    },
  };
});
const report = computeAlignment({ urgent, team }, rows, { bootstrap: { B: 20, seed: 1 } });

/** Both questions' panels, their threshold read from the alignment store as the screen does. */
function Panels() {
  const thresholds = useAlignment((s) => s.options.noulThresholds);
  const setThreshold = useAlignment((s) => s.setThreshold);
  return (
    <>
      {(['urgent', 'team'] as const).map((name) => (
        <QuestionPanel
          key={name}
          report={report.questions[name]!}
          definition={name === 'urgent' ? urgent : team}
          mapping={mapping}
          rowOf={() => undefined}
          cell={null}
          onCell={() => {}}
          threshold={thresholds[name] ?? 0.5}
          onThreshold={(v) => setThreshold(name, v)}
          onOpenRow={() => {}}
          onOpenRows={() => {}}
          bootstrap={report.bootstrap}
          escalation={{ nextJudge: 'model-2 at local', onEscalate: () => {} }}
        />
      ))}
    </>
  );
}

afterEach(() =>
  useAlignment.setState({ options: { ...useAlignment.getState().options, noulThresholds: {} } }),
);

it('moves the threshold without certifying a threshold or splitting the rows again (about 50 ms a key before)', () => {
  expect(report.questions['urgent']!.trust?.escalation).toBeDefined();
  render(<Panels />);
  expect(screen.getByTestId('align.trust.escalate.urgent')).toHaveTextContent(/two-judge cascade/);
  const before = { ...calls };
  const slider = screen.getByRole('slider', { name: 'Threshold on P(yes) for urgent' });
  for (const value of ['0.51', '0.52', '0.53', '0.6']) fireEvent.change(slider, { target: { value } });
  expect(screen.getByTestId('align.threshold.urgent')).toHaveTextContent('0.60');
  // The matrix follows the key at once, from the report's grid.
  expect(screen.getByTestId('align.figure.urgent.accuracy')).toHaveAttribute('aria-busy', 'true');
  expect(calls).toEqual(before);
});

it('reads the escalation threshold the report certified at delta / 2, as the cascade would', () => {
  render(<Panels />);
  const certified = report.questions['urgent']!.trust!.escalation!.threshold;
  const text = screen.getByTestId('align.trust.escalate.urgent').textContent ?? '';
  if (certified === null) expect(text).toMatch(/certifies no threshold/);
  else expect(text).toContain(`confidence >= ${certified.toFixed(2)}`);
  expect(calls.escalation).toBe(0);
});
