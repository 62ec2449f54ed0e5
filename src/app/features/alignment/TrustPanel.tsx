// "Can the judge replace a person?" for one question: how well people agree with each other beside how well the judge
// agrees with them, the alt-test's verdict and why, the confidence threshold that certifies an agreement (or that none
// does) with the rows it settles and a labelling queue of the rest, the cascade, and prevalence with PPI.
import { useMemo } from 'react';
import type { Question } from '../../../contract';
import { splitByThreshold } from '../../../core/alignment/labellingQueue';
import { exportCsv, exportInputColumns, exportJsonl } from '../../../core/rows/results';
import type { TrustFigures } from '../../../core/trust';
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
}

const two = (x: number | null): string => (x === null ? '—' : x.toFixed(2));

/** A share between 0 and 1 typed by the user, or the sentence why not. */
function shareOf(text: string): number | string {
  const n = Number(text.trim());
  return Number.isFinite(n) && n > 0 && n < 1 ? n : 'Give a number between 0 and 1, such as 0.1.';
}

export function TrustPanel({ name, definition, trust, fileBase }: TrustPanelProps) {
  const settings = useAlignment((s) => s.options.trust);
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
      {t.sentences.cascade && <p data-testid={`align.trust.cascade.${name}`}>{t.sentences.cascade}</p>}
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
      </div>
    </section>
  );
}
