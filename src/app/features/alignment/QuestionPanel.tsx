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
import type { ReactNode } from 'react';
import { FigureWithWords } from './FigureText';
import { PrecisionRecallTable, PrevalenceTable } from './FigureTables';
import { ThresholdSlider } from './ThresholdSlider';
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

/** The figures shown: the report's, or at a threshold the worker has not caught up with, the grid's at once. */
function shownFigures(report: QuestionReport, threshold: number) {
  const view =
    report.threshold && Math.abs(report.threshold.value - threshold) > 1e-9
      ? thresholdView(report, threshold)
      : null;
  const figures = view
    ? {
        ...report.figures,
        accuracy: { ...report.figures['accuracy']!, value: view.accuracy },
        tpr: { ...report.figures['tpr']!, value: view.tpr },
        tnr: { ...report.figures['tnr']!, value: view.tnr },
      }
    : report.figures;
  return { moved: view !== null, figures, counts: view?.counts ?? report.confusion.counts };
}

/** The value a class index stands for: a choice's option, a score's level, or noul's yes (1) and no (0). */
const classValue = (report: QuestionReport, i: number): LabelValue =>
  report.type === 'choice' ? report.classes[i]! : report.type === 'score' ? i : i === 1;

/** A class index in words, as the confusion matrix and the open cell's title say it. */
const classWord = (report: QuestionReport, definition: Question, i: number): string =>
  report.type === 'choice'
    ? report.classes[i]!
    : report.type === 'score'
      ? labelText(i, definition)
      : i === 1
        ? 'yes'
        : 'no';

/** One figure with its words; `pending` while the slider's figures wait for the worker's intervals. */
type FigureCell = (key: string, pending?: boolean) => ReactNode;

export function QuestionPanel(props: QuestionPanelProps) {
  const { report, definition, cell } = props;
  const name = report.name;
  const { moved, figures, counts } = shownFigures(report, props.threshold);
  const context = { question: name, type: report.type, classes: report.classes.length };
  const figureCell: FigureCell = (key, pending = false) => (
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
  return (
    <section
      className="align-question panel"
      aria-label={`Alignment of ${name}`}
      data-testid={`align.question.${name}`}
    >
      <h3>
        <code>{name}</code> <span className="muted">({typeWord(report.type)})</span>
      </h3>
      <QuestionCounts report={report} />
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
                <dd>{figureCell(key, moved && AT_THRESHOLD.has(key))}</dd>
              </div>
            ))}
          </dl>
          {report.type === 'choice' && <PrecisionRecallTable report={report} figures={figures} />}
          {report.threshold && (
            <ThresholdSlider
              name={name}
              best={report.threshold.best}
              threshold={props.threshold}
              onThreshold={props.onThreshold}
            />
          )}
          <ConfusionMatrix
            question={name}
            classes={report.classes.map((_, i) => classWord(report, definition, i))}
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
        <CalibrationColumn report={report} figureCell={figureCell} />
      </div>
      <QuestionRows {...props} open={open} />
    </section>
  );
}

/** How many rows the figures are of, and what was left out of them. */
function QuestionCounts({ report }: { report: QuestionReport }) {
  return (
    <p className="muted" data-testid={`align.counts.${report.name}`}>
      {report.n} rows with a label and an answer · {report.labelled} labelled ·{' '}
      {report.unanswered - (report.refused ?? 0)} labelled but not answered yet
      {report.refused
        ? ` · ${report.refused} refused by the judge (left out of every figure, never counted as a mistake)`
        : ''}
      {report.invalidLabels ? ` · ${report.invalidLabels} labels that are not options of this question` : ''}
    </p>
  );
}

/** How calibrated the judge's probabilities are, selective accuracy, and the corrected prevalence. */
function CalibrationColumn({ report, figureCell }: { report: QuestionReport; figureCell: FigureCell }) {
  const name = report.name;
  return (
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
      {report.prevalence.length > 0 && <PrevalenceTable report={report} />}
    </div>
  );
}

/** Below the figures: the open cell's rows, whether the judge can replace a person, and the disagreements. */
function QuestionRows(props: QuestionPanelProps & { open: OpenCell | null }) {
  const { report, definition, open } = props;
  const name = report.name;
  return (
    <>
      {open && <OpenCellRows {...props} open={open} />}
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
    </>
  );
}

/** The rows of the open confusion cell: labelled one class, answered another. */
function OpenCellRows(props: QuestionPanelProps & { open: OpenCell }) {
  const { report, definition, open } = props;
  const cellIds = report.confusion.ids[open.truth]?.[open.predicted] ?? [];
  const cellTotal = report.confusion.counts[open.truth]?.[open.predicted] ?? 0;
  const valueOf = (i: number) => classValue(report, i);
  const classText = (i: number) => classWord(report, definition, i);
  return (
    <DisagreementList
      key={`${open.truth}.${open.predicted}`}
      onOpenAll={() => props.onOpenRows({ label: valueOf(open.truth), answer: valueOf(open.predicted) })}
      question={report.name}
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
  );
}
