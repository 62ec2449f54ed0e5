// "Can the judge replace a person?" for one question: how well people agree with each other beside how well the judge
// agrees with them, the alt-test's verdict and why, the confidence threshold that certifies an agreement (or that none
// does) with the rows it settles and a labelling queue of the rest, the cascade, and prevalence with PPI.
import { useMemo } from 'react';
import type { Answer, Question } from '../../../contract';
import { splitByThreshold, topProbabilityOf } from '../../../core/alignment/labellingQueue';
import { exportCsv, exportInputColumns, exportJsonl } from '../../../core/rows/results';
import type { PpiPredictor, TrustFigures } from '../../../core/trust';
import { downloadParts } from '../../platform/download';
import { useRows } from '../../stores/rows';
import { CommitInput } from '../../components/CommitInput';
import { useAlignment } from './alignmentStore';

export interface TrustPanelProps {
  name: string;
  definition: Question;
  trust: TrustFigures;
  /** The file's base name, for the queue's file names. */
  fileBase: string;
  /**
   * The next judge of a cascade (the session's model at the chosen target), and how to ask it about the rows this
   * judge abstains on; null next judge while it cannot be asked (a run going on).
   */
  escalation?: {
    nextJudge: string | null;
    onEscalate: (question: string, rows: number[], threshold: number | null) => void;
  };
}

/** An answer as the cascade export writes it: the choice, the level, or yes/no. */
function answerText(answer: Answer | undefined): string {
  if (!answer) return '';
  if (answer.type === 'choice') return answer.choice;
  if (answer.type === 'score') return String(answer.score);
  if (answer.type === 'noul') return answer.noul >= 0.5 ? 'yes' : 'no';
  return '';
}

const two = (x: number | null): string => (x === null ? '—' : x.toFixed(2));

/** A share between 0 and 1 typed by the user, or the sentence why not. */
function shareOf(text: string): number | string {
  const n = Number(text.trim());
  return Number.isFinite(n) && n > 0 && n < 1 ? n : 'Give a number between 0 and 1, such as 0.1.';
}

export function TrustPanel({ name, definition, trust, fileBase, escalation }: TrustPanelProps) {
  const settings = useAlignment((s) => s.options.trust);
  const laterJudges = useAlignment((s) => s.cascadeRows);
  const setTrust = useAlignment((s) => s.setTrust);
  const version = useRows((s) => s.resultsVersion);
  const threshold = trust.threshold.threshold;
  // The threshold applied to every row of the file, labelled or not: what the judge settles and what people label.
  const split = useMemo(
    () => splitByThreshold(useRows.getState().results(), name, definition, threshold),
    // The results are read again whenever the rows store says they changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [name, definition, threshold, version],
  );
  // The first judge of a two-judge cascade: its threshold certified at delta / 2 with the report (in the worker), and
  // the rows it abstains on. Keyed by that number alone: a slider or another question's setting does not move it.
  const escalationAt = trust.escalation?.threshold ?? null;
  const escalating = useMemo(
    () => ({
      threshold: escalationAt,
      rows: splitByThreshold(useRows.getState().results(), name, definition, escalationAt).queue,
    }),
    // The results are read again whenever the rows store says they changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [name, definition, escalationAt, version],
  );
  const exportCascade = () => {
    const state = useRows.getState();
    const steps = trust.cascade?.judges ?? [];
    const lines = [['row_id', 'settled_by', 'answer', 'confidence']];
    for (const row of state.results()) {
      const id = String(row.number);
      // The first judge whose confidence reaches its certified threshold settles the row; none: a person does.
      const answers = [
        row.response?.answers[name],
        ...laterJudges.map((j) => j.byId.get(id)?.answers?.[name]),
      ];
      let settled = ['person', '', ''];
      for (let i = 0; i < steps.length; i++) {
        const t = steps[i]!.threshold;
        const answer = answers[i];
        const top = topProbabilityOf(answer, definition);
        if (t !== null && top !== null && top >= t) {
          settled = [steps[i]!.name, answerText(answer), top.toFixed(3)];
          break;
        }
      }
      lines.push([row.id, ...settled]);
    }
    const csv = lines
      .map((l) => l.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','))
      .join('\r\n');
    downloadParts(`${fileBase}-${name}-cascade.csv`, 'text/csv;charset=utf-8', [`${csv}\r\n`]);
  };
  const exportQueue = (kind: 'csv' | 'jsonl') => {
    const state = useRows.getState();
    const { queue } = split;
    const questions = { [name]: definition };
    const file = `${fileBase}-${name}-labelling-queue.${kind}`;
    if (kind === 'csv')
      downloadParts(
        file,
        'text/csv;charset=utf-8',
        exportCsv(queue, questions, exportInputColumns(queue, state.openRun?.columns ?? [])),
      );
    else downloadParts(file, 'application/x-ndjson;charset=utf-8', exportJsonl(queue));
  };
  const setting = (key: 'epsilon' | 'alpha' | 'delta', label: string, hint: string) => (
    <label className="align-trust__setting">
      {label}{' '}
      <CommitInput
        value={String(settings[key])}
        inputMode="decimal"
        size={5}
        aria-description={hint}
        onCommit={(text) => {
          const v = shareOf(text);
          if (typeof v === 'string') return v;
          setTrust({ [key]: v });
          return null;
        }}
        data-testid={`align.trust.${key}`}
      />
    </label>
  );
  const t = trust;
  return (
    <section
      className="align-trust"
      aria-labelledby={`align-trust-${name}`}
      data-testid={`align.trust.${name}`}
    >
      <h4 id={`align-trust-${name}`}>Can the judge replace a person?</h4>
      <p className="muted">
        {t.annotators.length} annotator{t.annotators.length === 1 ? '' : 's'} ({t.annotators.join(', ')}) ·{' '}
        {t.rows.labelled} rows labelled, {t.rows.pairable} by two or more · {t.rows.judgeOnly} answered rows
        nobody labelled
      </p>
      <p data-testid={`align.trust.ceiling.${name}`}>{t.sentences.ceiling}</p>
      <p data-testid={`align.trust.verdict.${name}`}>
        <strong>{t.altTest.verdict === null ? 'No verdict. ' : ''}</strong>
        {t.sentences.altTest}
      </p>
      {t.altTest.annotators.length > 0 && (
        <details>
          <summary>The alt-test, one annotator left out at a time</summary>
          <table className="align-table" data-testid={`align.trust.alt.${name}`}>
            <thead>
              <tr>
                <th scope="col">Annotator</th>
                <th scope="col">Rows</th>
                <th scope="col">Judge vs the others</th>
                <th scope="col">Annotator vs the others</th>
                <th scope="col">p</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {t.altTest.annotators.map((a) => (
                <tr key={a.name}>
                  <th scope="row">{a.name}</th>
                  <td>{a.n}</td>
                  <td>{two(a.judgeAlignment)}</td>
                  <td>{two(a.annotatorAlignment)}</td>
                  <td>{a.p === null ? '—' : a.p < 0.001 ? '< 0.001' : a.p.toFixed(3)}</td>
                  <td>{a.leftOut ?? (a.won ? 'the judge won' : 'the annotator kept')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      <p data-testid={`align.trust.threshold.${name}`}>{t.sentences.threshold}</p>
      <p className="align-trust__queue">
        <span data-testid={`align.trust.split.${name}`}>
          {threshold === null
            ? `With no certified threshold, all ${split.queue.length} rows of the file go to people.`
            : `Applied to the whole file, the judge settles ${split.settled.length} rows; ${split.queue.length} (under the threshold, or not answered) go to people.`}
        </span>{' '}
        <button
          type="button"
          onClick={() => exportQueue('csv')}
          data-testid={`align.trust.queue.csv.${name}`}
        >
          Labelling queue (CSV)
        </button>{' '}
        <button
          type="button"
          onClick={() => exportQueue('jsonl')}
          data-testid={`align.trust.queue.jsonl.${name}`}
        >
          Labelling queue (JSONL)
        </button>
      </p>
      {t.sentences.cascade && (
        <p data-testid={`align.trust.cascade.${name}`}>
          {t.sentences.cascade}{' '}
          <button type="button" onClick={exportCascade} data-testid={`align.trust.cascade.csv.${name}`}>
            Which judge settled each row (CSV)
          </button>
        </p>
      )}
      {escalation && !t.sentences.cascade && (
        <p data-testid={`align.trust.escalate.${name}`}>
          {escalating.threshold === null
            ? 'As the first judge of a two-judge cascade (delta split in two), this judge certifies no threshold: every row would go on to the next judge.'
            : `As the first judge of a two-judge cascade (delta split in two), this judge settles rows at confidence >= ${escalating.threshold.toFixed(2)}; ${escalating.rows.length} rows go on to the next judge.`}{' '}
          <button
            type="button"
            disabled={escalation.nextJudge === null || escalating.rows.length === 0}
            onClick={() =>
              escalation.onEscalate(
                name,
                escalating.rows.map((r) => r.number),
                escalating.threshold,
              )
            }
            data-testid={`align.trust.escalate.run.${name}`}
          >
            Ask {escalation.nextJudge ?? 'the next judge'} about those {escalating.rows.length} rows
          </button>
        </p>
      )}
      {t.sentences.estimates.length > 0 && (
        <ul data-testid={`align.trust.estimates.${name}`}>
          {t.sentences.estimates.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      )}
      <div
        className="align-trust__settings"
        role="group"
        aria-label="Settings of these tests, for every question"
      >
        {setting(
          'epsilon',
          'Alt-test margin ε',
          'How much worse than an annotator the judge may align and still win',
        )}
        {setting(
          'alpha',
          'Disagreement allowed α',
          'The threshold certifies agreement of at least 1 - alpha',
        )}
        {setting('delta', 'Risk δ', 'The certificate holds with probability at least 1 - delta')}
        <label className="align-trust__setting">
          Prevalence from{' '}
          <select
            value={settings.ppiPredictor ?? 'probability'}
            aria-description="What stands for the judge in the prediction-powered estimates: a calibrated probability gives a narrower interval with the same guarantee"
            onChange={(e) => setTrust({ ppiPredictor: e.target.value as PpiPredictor })}
            data-testid="align.trust.ppiPredictor"
          >
            <option value="probability">the judge’s probabilities</option>
            <option value="label">the judge’s hard labels</option>
          </select>
        </label>
      </div>
    </section>
  );
}
