// Every figure of one question: agreement with n and intervals, the confusion matrix whose cells open their rows, the
// noul threshold slider, calibration with its reliability diagram, selective accuracy read out, corrected
// prevalence, and the disagreements.
import type { Question } from '../../../contract';
import type { QuestionReport } from '../../../core/alignment/compute';
import { figureName } from '../../../core/alignment/figureWords';
import { labelText } from '../../../core/labels/values';
import { thresholdView } from '../../../core/alignment/thresholdView';
import type { LabelValue } from '../../../core/alignment/types';
import type { RowMapping } from '../../../core/rows/mapping';
import type { ResultRow } from '../../../core/rows/results';
import { ConfusionMatrix } from './ConfusionMatrix';
import { DisagreementList } from './DisagreementList';
import { FigureText, FigureWithWords } from './FigureText';
import { ReliabilityDiagram } from './ReliabilityDiagram';
import { TrustPanel } from './TrustPanel';
import type { TrustPanelProps } from './TrustPanel';
import type { OpenCell } from './alignmentStore';
import { typeWord } from '../../../core/words';

const AGREEMENT: Record<Question['type'], string[]> = {
  choice: ['accuracy', 'kappa', 'macro_f1'],
  score: ['exact', 'within_one', 'qwk', 'spearman', 'mae'],
  noul: ['accuracy', 'tpr', 'tnr', 'auroc'],
};
const CALIBRATION = ['brier', 'log_loss', 'ece'];
/** The noul figures the threshold moves: shown at once from the report's grid while their intervals are computed. */
const AT_THRESHOLD = new Set(['accuracy', 'tpr', 'tnr']);

/** What a list of rows opened in the rows screen keeps: by label and answer (a cell), or the disagreements. */
export interface RowsWanted {
  label: LabelValue | null;
  answer: LabelValue | null;
  relation?: 'disagree';
}

export interface QuestionPanelProps {
  report: QuestionReport;
  definition: Question;
  mapping: RowMapping;
  rowOf: (number: number) => ResultRow | undefined;
  cell: OpenCell | null;
  onCell: (cell: OpenCell | null) => void;
  threshold: number;
  onThreshold: (value: number) => void;
  onOpenRow: (row: ResultRow) => void;
  /** Opens rows of this question in the rows screen, filtered: every row, past what the report keeps. */
  onOpenRows: (wanted: RowsWanted) => void;
  bootstrap: { B: number; seed: number };
  /** The run's file name without its extension, for the files the panel saves ("rows" when not given). */
  fileBase?: string;
  /** Asking a cascade's next judge about the rows this run's judge abstains on. */
  escalation?: TrustPanelProps['escalation'];
}

export function QuestionPanel(props: QuestionPanelProps) {
  const { report, definition, cell } = props;
  const name = report.name;
  // The threshold moved and the worker has not caught up: the figures it moves are read from the grid at once.
  const view =
    report.threshold && Math.abs(report.threshold.value - props.threshold) > 1e-9
      ? thresholdView(report, props.threshold)
      : null;
  const figures = view
    ? {
        ...report.figures,
        accuracy: { ...report.figures['accuracy']!, value: view.accuracy },
        tpr: { ...report.figures['tpr']!, value: view.tpr },
        tnr: { ...report.figures['tnr']!, value: view.tnr },
      }
    : report.figures;
  const counts = view?.counts ?? report.confusion.counts;
  const context = { question: name, type: report.type, classes: report.classes.length };
  // One figure with its words; `pending` while the slider's figures wait for the worker's intervals.
  const figureCell = (key: string, pending = false) => (
    <FigureWithWords
      figureKey={key}
      figure={figures[key]}
      context={context}
      bootstrap={props.bootstrap}
      testId={`align.figure.${name}.${key}`}
      pending={pending}
    />
  );
  const open = cell?.question === name ? cell : null;
  const cellIds = open ? (report.confusion.ids[open.truth]?.[open.predicted] ?? []) : [];
  const cellTotal = open ? (report.confusion.counts[open.truth]?.[open.predicted] ?? 0) : 0;
  const describedBy = `align-threshold-${name}-what`;
  const valueOf = (i: number) =>
    report.type === 'choice' ? report.classes[i]! : report.type === 'score' ? i : i === 1;
  const classText = (i: number) =>
    report.type === 'choice'
      ? report.classes[i]!
      : report.type === 'score'
        ? labelText(i, definition)
        : i === 1
          ? 'yes'
          : 'no';
  return (
    <section
      className="align-question panel"
      aria-label={`Alignment of ${name}`}
      data-testid={`align.question.${name}`}
    >
      <h3>
        <code>{name}</code> <span className="muted">({typeWord(report.type)})</span>
      </h3>
      <p className="muted" data-testid={`align.counts.${name}`}>
        {report.n} rows with a label and an answer · {report.labelled} labelled ·{' '}
        {report.unanswered - (report.refused ?? 0)} labelled but not answered yet
        {report.refused
          ? ` · ${report.refused} refused by the judge (left out of every figure, never counted as a mistake)`
          : ''}
        {report.invalidLabels
          ? ` · ${report.invalidLabels} labels that are not options of this question`
          : ''}
      </p>
      <div className="align-question__grid">
        <div>
          <h4>Agreement</h4>
          <dl className="align-figures">
            {AGREEMENT[report.type].map((key) => (
              <div key={key}>
                <dt>
                  {figureName(key)}
                  {report.type === 'noul' && key === 'accuracy' ? ' at the threshold' : ''}
                </dt>
                <dd>{figureCell(key, view !== null && AT_THRESHOLD.has(key))}</dd>
              </div>
            ))}
          </dl>
          {report.type === 'choice' && (
            <details>
              <summary>Precision and recall per label</summary>
              <table className="align-table">
                <thead>
                  <tr>
                    <th scope="col">Label</th>
                    <th scope="col">Precision</th>
                    <th scope="col">Recall</th>
                  </tr>
                </thead>
                <tbody>
                  {report.classes.map((c) => (
                    <tr key={c}>
                      <th scope="row">{c}</th>
                      <td>
                        <FigureText figure={figures[`precision.${c}`]} />
                      </td>
                      <td>
                        <FigureText figure={figures[`recall.${c}`]} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          )}
          {report.threshold && (
            <div className="align-threshold">
              <label htmlFor={`align-threshold-${name}`}>
                Threshold on P(yes):{' '}
                <strong data-testid={`align.threshold.${name}`}>{props.threshold.toFixed(2)}</strong>
              </label>
              <input
                id={`align-threshold-${name}`}
                type="range"
                min={0}
                max={1}
                step={0.01}
                value={props.threshold}
                aria-label={`Threshold on P(yes) for ${name}`}
                aria-valuetext={props.threshold.toFixed(2)}
                aria-describedby={describedBy}
                onChange={(e) => props.onThreshold(Number(e.currentTarget.value))}
                data-testid={`align.threshold.${name}.slider`}
              />
              <p id={describedBy} className="muted">
                The judge says yes when its P(yes) is at or above the threshold: moving it trades finding the
                yes rows (true-positive rate) against keeping the no rows out (true-negative rate). The
                confusion matrix and rates follow at once; the intervals a moment later.
              </p>
              {report.threshold.best ? (
                <p>
                  Best balanced accuracy {report.threshold.best.balancedAccuracy.toFixed(2)} at{' '}
                  {report.threshold.best.threshold.toFixed(2)} (TPR {report.threshold.best.tpr.toFixed(2)},
                  TNR {report.threshold.best.tnr.toFixed(2)}).{' '}
                  <button
                    type="button"
                    className="link-button"
                    onClick={() =>
                      props.onThreshold(Math.round(report.threshold!.best!.threshold * 100) / 100)
                    }
                  >
                    Use it
                  </button>
                </p>
              ) : (
                <p className="muted">The best threshold needs labelled rows of both classes.</p>
              )}
            </div>
          )}
          <ConfusionMatrix
            question={name}
            classes={report.classes.map((_, i) => classText(i))}
            counts={counts}
            open={open}
            onOpen={(truth, predicted) =>
              props.onCell(
                open?.truth === truth && open.predicted === predicted
                  ? null
                  : { question: name, truth, predicted },
              )
            }
          />
        </div>
        <div>
          <h4>Calibration</h4>
          <dl className="align-figures">
            {CALIBRATION.map((key) => (
              <div key={key}>
                <dt>{figureName(key)}</dt>
                <dd>{figureCell(key)}</dd>
              </div>
            ))}
          </dl>
          <ReliabilityDiagram
            question={name}
            bins={report.reliability}
            probabilityName={report.type === 'noul' ? 'P(yes)' : 'top probability'}
          />
          <p data-testid={`align.selective.${name}`}>{report.selective.sentence}</p>
          {report.prevalence.length > 0 && (
            <details>
              <summary>Corrected prevalence over the whole file</summary>
              <table className="align-table" data-testid={`align.prevalence.${name}`}>
                <thead>
                  <tr>
                    <th scope="col">{report.type === 'noul' ? 'Answer' : 'Label'}</th>
                    <th scope="col">Judge’s share</th>
                    <th scope="col">Corrected (Rogan-Gladen)</th>
                    <th scope="col">Human share (labelled rows)</th>
                  </tr>
                </thead>
                <tbody>
                  {report.prevalence.map((p) => (
                    <tr key={p.label}>
                      <th scope="row">{p.label}</th>
                      <td>
                        <FigureText figure={p.judge} />
                      </td>
                      <td>
                        <FigureText figure={p.corrected} />
                      </td>
                      <td>
                        <FigureText figure={p.human} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          )}
        </div>
      </div>
      {open && (
        <DisagreementList
          key={`${open.truth}.${open.predicted}`}
          onOpenAll={() => props.onOpenRows({ label: valueOf(open.truth), answer: valueOf(open.predicted) })}
          question={name}
          definition={definition}
          title={`Rows labelled ${classText(open.truth)}, answered ${classText(open.predicted)} (${cellTotal})`}
          total={cellTotal}
          items={cellIds.map((id) => {
            const d = report.disagreements.find((x) => x.id === id);
            return (
              d ?? {
                id,
                label: valueOf(open.truth),
                predicted: valueOf(open.predicted),
                pPredicted: NaN,
                pLabel: NaN,
              }
            );
          })}
          rowOf={props.rowOf}
          mapping={props.mapping}
          onOpen={props.onOpenRow}
        />
      )}
      {report.trust && (
        <TrustPanel
          name={name}
          definition={definition}
          trust={report.trust}
          fileBase={props.fileBase ?? 'rows'}
          {...(props.escalation ? { escalation: props.escalation } : {})}
        />
      )}
      <DisagreementList
        question={name}
        definition={definition}
        items={report.disagreements}
        total={report.disagreementCount}
        rowOf={props.rowOf}
        mapping={props.mapping}
        onOpen={props.onOpenRow}
        limit={10}
        onOpenAll={() => props.onOpenRows({ label: null, answer: null, relation: 'disagree' })}
      />
    </section>
  );
}
