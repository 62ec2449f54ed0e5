// The alignment screen's pieces in jsdom: the labelling view driven by the keyboard alone (options, skip, undo, the
// judge's answer hidden until revealed), and the confusion matrix whose cells open the rows behind them.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { Answer, Question } from '../../../src/contract';
import { computeAlignment } from '../../../src/core/alignment/compute';
import type { LabelValue } from '../../../src/core/alignment/types';
import type { RowMapping } from '../../../src/core/rows/mapping';
import type { ResultRow } from '../../../src/core/rows/results';
import { LabellingView } from '../../../src/app/features/alignment/LabellingView';
import { QuestionPanel } from '../../../src/app/features/alignment/QuestionPanel';
import type { OpenCell } from '../../../src/app/features/alignment/alignmentStore';
import { alignRowsOf } from '../../../src/app/features/alignment/alignmentStore';

const team: Question = { type: 'choice', criteria: { billing: null, technical: null, sales: null } };
const mapping: RowMapping = {
  mode: 'fields',
  idColumn: 'id',
  labels: [{ column: 'human', question: 'team', levelBase: 0, values: {} }],
};
const answer = (p: [number, number, number]): Answer => ({
  type: 'choice',
  choice: ['billing', 'technical', 'sales'][p.indexOf(Math.max(...p))]!,
  confidence: 0.5,
  probabilities: { billing: p[0], technical: p[1], sales: p[2] },
});
const row = (n: number, text: string, p: [number, number, number], label?: string): ResultRow => ({
  number: n,
  line: n + 1,
  id: `t${n}`,
  data: { id: `t${n}`, text, human: label ?? '' },
  response: { model: 'model-1.0.0', answers: { team: answer(p) }, usage: { input_tokens: 10 } },
  ...(label ? { labels: { team: label } } : {}),
});

/** The view over rows held in React state, as the store would hold them. */
function Harness({ initial, log }: { initial: ResultRow[]; log: string[] }) {
  const [rows, setRows] = useState(initial);
  const [revealed, setRevealed] = useState(false);
  const [history, setHistory] = useState<{ number: number; previous: LabelValue | null }[]>([]);
  const setLabel = (number: number, value: LabelValue | null) => {
    log.push(`${number}=${String(value)}`);
    setRows((rs) =>
      rs.map((r) => {
        if (r.number !== number) return r;
        const { labels: _l, ...rest } = r;
        return value === null ? rest : { ...rest, labels: { team: value } };
      }),
    );
  };
  return (
    <>
      <input aria-label="Somewhere else" />
      <LabellingView
        question="team"
        definition={team}
        rows={rows}
        mapping={mapping}
        revealed={revealed}
        onReveal={setRevealed}
        labeller=""
        onLabeller={() => {}}
        onLabel={(number, value) => {
          setHistory((h) => [
            ...h,
            { number, previous: rows.find((r) => r.number === number)?.labels?.team ?? null },
          ]);
          setLabel(number, value);
        }}
        onUndo={() => {
          const last = history[history.length - 1];
          if (!last) return null;
          setHistory((h) => h.slice(0, -1));
          setLabel(last.number, last.previous);
          return last.number;
        }}
      />
    </>
  );
}

describe('labelling view', () => {
  it('labels with keys, skips with S, undoes with Backspace and keeps the judge hidden until asked', async () => {
    const user = userEvent.setup();
    const log: string[] = [];
    render(
      <Harness
        log={log}
        initial={[
          row(1, 'Charged twice', [0.8, 0.1, 0.1]),
          row(2, 'App crashes', [0.1, 0.8, 0.1]),
          row(3, 'Want a quote', [0.2, 0.2, 0.6]),
        ]}
      />,
    );
    const view = screen.getByTestId('align.labelling');
    expect(screen.getByTestId('align.labelling.progress')).toHaveTextContent('0 of 3 labelled');
    expect(screen.getByTestId('align.labelling.state')).toHaveTextContent('Charged twice');
    // The state is what was sent: the label column is not in it.
    expect(screen.getByTestId('align.labelling.state')).not.toHaveTextContent('human');
    expect(screen.queryByTestId('align.labelling.judge')).toBeNull();
    expect(view).not.toHaveTextContent('0.80');

    view.focus();
    await user.keyboard('1');
    expect(log).toEqual(['1=billing']);
    expect(screen.getByTestId('align.labelling.progress')).toHaveTextContent('1 of 3 labelled');
    expect(screen.getByTestId('align.labelling.state')).toHaveTextContent('App crashes');
    // Revealed after labelling: the previous row's answer next to the label given.
    expect(screen.getByTestId('align.labelling.last')).toHaveTextContent(
      'your label billing · the judge: billing 0.80',
    );

    await user.keyboard('s');
    expect(screen.getByTestId('align.labelling.state')).toHaveTextContent('Want a quote');
    expect(screen.getByTestId('align.labelling.progress')).toHaveTextContent('1 skipped');

    // Backspace after S undoes the skip, not the label before it; the next Backspace undoes the label.
    await user.keyboard('{Backspace}');
    expect(log).toEqual(['1=billing']);
    expect(screen.getByTestId('align.labelling.state')).toHaveTextContent('App crashes');
    expect(screen.getByTestId('align.labelling.progress')).toHaveTextContent(/^1 of 3 labelled$/);
    await user.keyboard('{Backspace}');
    expect(log).toEqual(['1=billing', '1=null']);
    expect(screen.getByTestId('align.labelling.state')).toHaveTextContent('Charged twice');
    expect(screen.getByTestId('align.labelling.progress')).toHaveTextContent('0 of 3 labelled');

    await user.keyboard('3');
    expect(log.at(-1)).toBe('1=sales');
    await user.keyboard('s');
    expect(screen.getByTestId('align.labelling.state')).toHaveTextContent('Want a quote');

    // Keys typed elsewhere never label.
    await user.click(screen.getByRole('textbox', { name: 'Somewhere else' }));
    await user.keyboard('2');
    expect(log.at(-1)).toBe('1=sales');

    await user.click(screen.getByRole('checkbox', { name: /Show the judge’s answer/ }));
    expect(screen.getByTestId('align.labelling.judge')).toHaveTextContent('sales 0.60');
    await user.click(screen.getByTestId('align.labelling.option.technical'));
    expect(log.at(-1)).toBe('3=technical');
    expect(screen.getByTestId('align.labelling.done')).toHaveTextContent('1 skipped');
  });

  it('answers a yes/no question with y and n', async () => {
    const user = userEvent.setup();
    const seen: string[] = [];
    const rows: ResultRow[] = [
      { number: 1, line: 2, id: 'a', data: { text: 'now!' } },
      { number: 2, line: 3, id: 'b', data: { text: 'whenever' } },
    ];
    render(
      <LabellingView
        question="urgent"
        definition={{ type: 'noul' }}
        rows={rows}
        mapping={{ mode: 'fields', idColumn: null }}
        revealed={false}
        onReveal={() => {}}
        labeller=""
        onLabeller={() => {}}
        onLabel={(n, v) => seen.push(`${n}=${String(v)}`)}
        onUndo={() => null}
      />,
    );
    screen.getByTestId('align.labelling').focus();
    await user.keyboard('y');
    expect(seen).toEqual(['1=true']);
    await user.keyboard('n');
    expect(seen).toEqual(['1=true', '2=false']);
  });
});

describe('confusion matrix', () => {
  const rows = [
    row(1, 'Charged twice', [0.8, 0.1, 0.1], 'billing'),
    row(2, 'Refund me', [0.1, 0.85, 0.05], 'billing'),
    row(3, 'Crash', [0.1, 0.8, 0.1], 'technical'),
    row(4, 'Price list', [0.1, 0.3, 0.6], 'sales'),
  ];
  const report = computeAlignment({ team }, alignRowsOf(rows), { bootstrap: { B: 50, seed: 1 } }).questions[
    'team'
  ]!;

  function Panel({ opened }: { opened: string[] }) {
    const [cell, setCell] = useState<OpenCell | null>(null);
    return (
      <QuestionPanel
        report={report}
        definition={team}
        mapping={mapping}
        rowOf={(n) => rows.find((r) => r.number === n)}
        cell={cell}
        onCell={setCell}
        threshold={0.5}
        onThreshold={() => {}}
        onOpenRow={(r) => opened.push(r.id)}
        onOpenRows={() => {}}
        bootstrap={{ B: 50, seed: 1 }}
      />
    );
  }

  it('shows counts, and a cell opens the rows behind it', async () => {
    const user = userEvent.setup();
    const opened: string[] = [];
    render(<Panel opened={opened} />);
    const matrix = screen.getByTestId('align.confusion.team');
    expect(
      within(matrix).getByRole('button', { name: '1 rows labelled billing, answered technical' }),
    ).toHaveTextContent('1');
    expect(
      within(matrix).getByRole('button', { name: '0 rows labelled sales, answered billing' }),
    ).toBeDisabled();
    expect(screen.getByTestId('align.figure.team.accuracy')).toHaveTextContent(
      /^0\.75 \(95% CI 0\.\d\d to 0\.\d\d\), n = 4$/,
    );

    await user.click(screen.getByTestId('align.cell.team.0.1'));
    const list = screen.getByRole('region', { name: 'Rows labelled billing, answered technical (1)' });
    expect(list).toHaveTextContent('Refund me');
    expect(list).toHaveTextContent('judge technical at 0.85');
    await user.click(within(list).getByRole('button', { name: 'Open in a new session' }));
    expect(opened).toEqual(['t2']);

    await user.click(screen.getByTestId('align.cell.team.0.0'));
    expect(
      screen.getByRole('region', { name: 'Rows labelled billing, answered billing (1)' }),
    ).toHaveTextContent('Charged twice');
  });
});

describe('a list that is cut', () => {
  it('shows the rest a page at a time and opens every disagreement in the rows screen', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 30 }, (_, i) =>
      row(i + 1, `Ticket ${i + 1}`, [0.1, 0.8, 0.1], i % 2 ? 'billing' : 'sales'),
    );
    const report = computeAlignment({ team }, alignRowsOf(many), { bootstrap: { B: 20, seed: 1 } }).questions[
      'team'
    ]!;
    const wanted: unknown[] = [];
    render(
      <QuestionPanel
        report={report}
        definition={team}
        mapping={mapping}
        rowOf={(n) => many.find((r) => r.number === n)}
        cell={null}
        onCell={() => {}}
        threshold={0.5}
        onThreshold={() => {}}
        onOpenRow={() => {}}
        onOpenRows={(w) => wanted.push(w)}
        bootstrap={{ B: 20, seed: 1 }}
      />,
    );
    const list = screen.getByRole('region', { name: 'Disagreements on team' });
    expect(within(list).getAllByTestId('align.disagreement')).toHaveLength(10);
    expect(within(list).getByTestId('align.disagreements.more')).toHaveTextContent('Showing 10 of 30.');
    await user.click(within(list).getByRole('button', { name: 'Show 10 more of Disagreements on team' }));
    expect(within(list).getAllByTestId('align.disagreement')).toHaveLength(20);
    await user.click(
      within(list).getByRole('button', { name: 'Open all 30 of Disagreements on team in the rows screen' }),
    );
    expect(wanted).toEqual([{ label: null, answer: null, relation: 'disagree' }]);
    // Every figure says what it means and which way is better.
    expect(screen.getByTestId('align.figure.team.kappa.words')).toHaveTextContent(/Higher is better\./);
    expect(screen.getByTestId('align.figure.team.ece.words')).toHaveTextContent(/Lower is better\./);
  });

  it('keeps "Open all N in the rows screen" once the list is paged to its end', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 30 }, (_, i) =>
      row(i + 1, `Ticket ${i + 1}`, [0.1, 0.8, 0.1], i % 2 ? 'billing' : 'sales'),
    );
    const report = computeAlignment({ team }, alignRowsOf(many), { bootstrap: { B: 20, seed: 1 } }).questions[
      'team'
    ]!;
    const wanted: unknown[] = [];
    render(
      <QuestionPanel
        report={report}
        definition={team}
        mapping={mapping}
        rowOf={(n) => many.find((r) => r.number === n)}
        cell={null}
        onCell={() => {}}
        threshold={0.5}
        onThreshold={() => {}}
        onOpenRow={() => {}}
        onOpenRows={(w) => wanted.push(w)}
        bootstrap={{ B: 20, seed: 1 }}
      />,
    );
    const list = screen.getByRole('region', { name: 'Disagreements on team' });
    await user.click(within(list).getByTestId('align.disagreements.showMore'));
    await user.click(within(list).getByTestId('align.disagreements.showMore'));
    expect(within(list).getAllByTestId('align.disagreement')).toHaveLength(30);
    expect(within(list).queryByTestId('align.disagreements.showMore')).toBeNull();
    await user.click(
      within(list).getByRole('button', { name: 'Open all 30 of Disagreements on team in the rows screen' }),
    );
    expect(wanted).toEqual([{ label: null, answer: null, relation: 'disagree' }]);
    // The kappa sentence names its band once: the scale line says it ("moderate. ... scale: moderate." before).
    const words = screen.getByTestId('align.figure.team.kappa.words').textContent ?? '';
    const band = /scale: ([^.]+)\./.exec(words)![1]!;
    expect(words.split(band)).toHaveLength(2);
  });
});
