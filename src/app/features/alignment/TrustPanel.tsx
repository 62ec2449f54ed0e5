// "Can the judge replace a person?" for one question: how well people agree with each other beside how well the judge
// agrees with them, the alt-test's verdict and why, the confidence threshold that certifies an agreement (or that none
// does) with the rows it settles and a labelling queue of the rest, the cascade, and prevalence with PPI.
import { useMemo } from 'react';
import type { Question } from '../../../contract';
import { splitByThreshold } from '../../../core/alignment/labellingQueue';
import type { ResultRow } from '../../../core/rows/results';
import type { TrustFigures } from '../../../core/trust';
import { useRows } from '../../stores/rows';
import { useAlignment } from './alignmentStore';
import { exportCascade, exportQueue } from './trustExports';
import { TrustSettings } from './TrustSettings';

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

const two = (x: number | null): string => (x === null ? '—' : x.toFixed(2));

/**
 * The threshold applied to every row of the file, labelled or not (what the judge settles and what people label), and
 * the rows the first judge of a two-judge cascade abstains on.
 */
function useThresholdSplits(name: string, definition: Question, trust: TrustFigures) {
  const version = useRows((s) => s.resultsVersion);
  const threshold = trust.threshold.threshold;
  const split = useMemo(
    () => splitByThreshold(useRows.getState().results(), name, definition, threshold),
    // The results are read again whenever the rows store says they changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [name, definition, threshold, version],
  );
  // The first judge's threshold is certified at delta / 2 with the report (in the worker). Keyed by that number
  // alone: a slider or another question's setting does not move it.
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
  return { split, escalating };
}

export function TrustPanel(props: TrustPanelProps) {
  const { name, definition, trust: t, escalation } = props;
  const laterJudges = useAlignment((s) => s.cascadeRows);
  const { split, escalating } = useThresholdSplits(name, definition, t);
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
      {t.altTest.annotators.length > 0 && <AltTestTable name={name} trust={t} />}
      <p data-testid={`align.trust.threshold.${name}`}>{t.sentences.threshold}</p>
      <QueueLine
        name={name}
        threshold={t.threshold.threshold}
        split={split}
        onExport={(kind) => exportQueue(split.queue, props, kind)}
      />
      {t.sentences.cascade && (
        <p data-testid={`align.trust.cascade.${name}`}>
          {t.sentences.cascade}{' '}
          <button
            type="button"
            onClick={() => exportCascade({ ...props, laterJudges })}
            data-testid={`align.trust.cascade.csv.${name}`}
          >
            Which judge settled each row (CSV)
          </button>
        </p>
      )}
      {escalation && !t.sentences.cascade && (
        <EscalateLine name={name} escalation={escalation} escalating={escalating} />
      )}
      {t.sentences.estimates.length > 0 && (
        <ul data-testid={`align.trust.estimates.${name}`}>
          {t.sentences.estimates.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      )}
      <TrustSettings />
    </section>
  );
}

/** The alt-test, one annotator left out at a time. */
function AltTestTable({ name, trust }: { name: string; trust: TrustFigures }) {
  return (
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
          {trust.altTest.annotators.map((a) => (
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
  );
}

interface QueueLineProps {
  name: string;
  threshold: number | null;
  split: { settled: ResultRow[]; queue: ResultRow[] };
  onExport: (kind: 'csv' | 'jsonl') => void;
}

/** What the certified threshold settles over the whole file, and the labelling queue of the rest. */
function QueueLine({ name, threshold, split, onExport }: QueueLineProps) {
  return (
    <p className="align-trust__queue">
      <span data-testid={`align.trust.split.${name}`}>
        {threshold === null
          ? `With no certified threshold, all ${split.queue.length} rows of the file go to people.`
          : `Applied to the whole file, the judge settles ${split.settled.length} rows; ${split.queue.length} (under the threshold, or not answered) go to people.`}
      </span>{' '}
      <button type="button" onClick={() => onExport('csv')} data-testid={`align.trust.queue.csv.${name}`}>
        Labelling queue (CSV)
      </button>{' '}
      <button type="button" onClick={() => onExport('jsonl')} data-testid={`align.trust.queue.jsonl.${name}`}>
        Labelling queue (JSONL)
      </button>
    </p>
  );
}

interface EscalateLineProps {
  name: string;
  escalation: NonNullable<TrustPanelProps['escalation']>;
  escalating: { threshold: number | null; rows: ResultRow[] };
}

/** This judge as the first of a two-judge cascade: the rows it would pass on, and asking the next judge about them. */
function EscalateLine({ name, escalation, escalating }: EscalateLineProps) {
  return (
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
  );
}
