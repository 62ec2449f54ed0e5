// A choice answer: every option as a horizontal bar, most probable first, the chosen label highlighted.
import { useId, useMemo, useRef, useState } from 'react';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { Bar, BarChart, Tooltip, YAxis } from 'recharts';
import type { ChoiceAnswer } from '../../../contract';
import {
  BAR_ROW_HEIGHT,
  CHOICE_TOP,
  barChartHeight,
  choiceSeries,
  formatFixed2,
} from '../../../core/answerSeries';
import type { ChoiceBar, ChoiceSeries } from '../../../core/answerSeries';
import { useElementWidth } from '../useElementWidth';
import { CHART, clip, labelColumnWidth } from './chartTheme';
import { ProbabilityAxis, barTooltip, barWithValue, plainTick, probabilityGridAndAxis } from './chartParts';
import { Confidence, reportedConfidence } from './Confidence';
import { ProbabilityTable } from './ProbabilityTable';

export interface ChoiceCardProps {
  name: string;
  answer: ChoiceAnswer;
  /** The criteria as sent: descriptions and the order ties are broken in. */
  criteria?: unknown;
  /** Upper end of the probability axis (default 1); comparisons share one. */
  probabilityMax?: number;
  /** Draw the options in this order instead of by probability (a comparison's shared order). */
  optionOrder?: readonly string[];
}

const TABLE_COLUMNS = ['Option', 'Probability', 'Description'] as const;
const MARGIN = { top: 2, right: 40, bottom: 2, left: 4 };

/** The chart and its text equivalent for one choice answer. */
export function ChoiceCard({ name, answer, criteria, probabilityMax = 1, optionOrder }: ChoiceCardProps) {
  const [showAll, setShowAll] = useState(false);
  const { series, hidden, data, tableRows } = useChoiceSeries(answer, criteria, optionOrder, showAll);
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const labelWidth = useMemo(() => labelColumnWidth(series.shown.map((b) => b.label)), [series.shown]);
  // Past the top 20 the chart scrolls in its card; its axis is drawn apart, under it, to stay in view.
  const scrolling = data.length > CHOICE_TOP;
  const height = barChartHeight(data.length);
  // A comparison shows one card per column for the same question: the id must be unique per card, not per name.
  const tableId = `answers-${useId()}-table`;

  return (
    <>
      <ChoiceHeadline answer={answer} series={series} />
      <div ref={ref} className="answer-chart-frame">
        {scrolling ? (
          <ScrollingBars data={data} width={width} labelWidth={labelWidth} probabilityMax={probabilityMax} />
        ) : (
          <div className="answer-chart" aria-hidden="true" data-testid="answers.chart">
            <ChoiceBars
              data={data}
              width={width}
              height={height}
              labelWidth={labelWidth}
              probabilityMax={probabilityMax}
            />
          </div>
        )}
      </div>
      {series.all.length > CHOICE_TOP && (
        <button
          type="button"
          className="link-button"
          aria-expanded={showAll}
          aria-controls={tableId}
          onClick={() => setShowAll((s) => !s)}
          data-testid="answers.showAll"
        >
          {showAll ? `Show the top ${CHOICE_TOP}` : `Show all ${series.all.length} options (${hidden} more)`}
        </button>
      )}
      <ProbabilityTable
        id={tableId}
        caption={`${name}: probability of each option, ${optionOrder ? 'in the order shared by the compared answers' : 'most probable first'}`}
        columns={TABLE_COLUMNS}
        rows={tableRows}
      />
    </>
  );
}

/** The options ranked once, the bars drawn (the top 20 or all) and the table's rows. */
function useChoiceSeries(
  answer: ChoiceAnswer,
  criteria: unknown,
  optionOrder: readonly string[] | undefined,
  showAll: boolean,
) {
  // Everything but the drawn bars stays the same when "show all" toggles, so the 255-row table is not redone.
  const ranked = useMemo(
    () => choiceSeries(answer, criteria, { showAll: true, order: optionOrder }),
    [answer, criteria, optionOrder],
  );
  const series = useMemo(
    () => ({ ...ranked, shown: showAll ? ranked.all : ranked.all.slice(0, CHOICE_TOP) }),
    [ranked, showAll],
  );
  const hidden = ranked.all.length - series.shown.length;
  const data = useMemo(
    () => series.shown.map((b) => ({ ...b, fill: b.chosen ? CHART.chosen : CHART.bar })),
    [series.shown],
  );
  const tableRows = useMemo(
    () =>
      ranked.all.map((b) => [
        b.chosen ? `${b.label} (chosen)` : b.label,
        formatFixed2(b.probability),
        b.description,
      ]),
    [ranked],
  );
  return { series, hidden, data, tableRows };
}

/** The chosen label with its probability and confidence, and a note when the top is a tie. */
function ChoiceHeadline({ answer, series }: { answer: ChoiceAnswer; series: ChoiceSeries }) {
  const chosen = series.all.find((b) => b.chosen);
  return (
    <>
      <p className="answer-headline">
        <span className="answer-headline__value" data-testid="answers.choice">
          {answer.choice}
        </span>
        {chosen && <span className="num answer-headline__p">p = {formatFixed2(chosen.probability)}</span>}
        <Confidence value={answer.confidence} server={reportedConfidence(answer)} />
      </p>
      {series.tiedAtTop.length > 0 && (
        <p className="answer-note" data-testid="answers.tie">
          Tie at the top: {series.tiedAtTop.join(', ')} (
          {formatFixed2(series.all.find((b) => b.rank === 1)!.probability)} each). The service picks the first
          in criteria order.
        </p>
      )}
    </>
  );
}

const LABEL_TICK = plainTick(
  (v) => clip(String(v)),
  (v) => String(v),
);

type BarDatum = ChoiceBar & { fill: string };

interface ChoiceBarsProps {
  data: readonly BarDatum[];
  width: number;
  height: number;
  labelWidth: number;
  probabilityMax: number;
  /** Leave out the probability axis (a scrolling chart draws it once, apart). */
  noAxis?: boolean;
}

/** One horizontal bar chart of options. */
function ChoiceBars({ data, width, height, labelWidth, probabilityMax, noAxis = false }: ChoiceBarsProps) {
  return (
    <BarChart
      layout="vertical"
      width={width}
      height={height}
      data={data as BarDatum[]}
      margin={noAxis ? { ...MARGIN, top: 0, bottom: 0 } : MARGIN}
      barCategoryGap={3}
      accessibilityLayer={false}
    >
      {probabilityGridAndAxis(probabilityMax, noAxis)}
      <YAxis
        type="category"
        dataKey="label"
        width={labelWidth}
        interval={0}
        tick={LABEL_TICK}
        tickLine={false}
      />
      <Tooltip
        cursor={{ fill: 'var(--chart-cursor)' }}
        content={<ChoiceTooltip />}
        isAnimationActive={false}
      />
      <Bar dataKey="probability" isAnimationActive={false} shape={barWithValue} />
    </BarChart>
  );
}

/** Bars per block of a scrolling chart: one block is about one screen of the card. */
const BLOCK = 20;
/** Height of the scrolling chart's window (matches .answer-chart--scroll's max-height). */
const WINDOW = 460;

/**
 * Every option in a scrolling window: the bars are drawn in blocks of 20 and only the blocks in or next to the window
 * exist, so 255 options cost about as much as 60. The total height is that of all the rows, so the scrollbar tells
 * where the user is.
 */
function ScrollingBars({
  data,
  width,
  labelWidth,
  probabilityMax,
}: Omit<ChoiceBarsProps, 'height' | 'noAxis'>) {
  const scroller = useRef<HTMLDivElement>(null);
  const blocks = Math.ceil(data.length / BLOCK);
  const rowsIn = (i: number): number => Math.min(BLOCK, data.length - i * BLOCK);
  const virtualizer = useVirtualizer({
    count: blocks,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => rowsIn(i) * BAR_ROW_HEIGHT,
    overscan: 1,
    initialRect: { width, height: WINDOW },
    // A window not laid out yet (a hidden pane) measures 0: draw it as if it showed, so there is never a blank chart.
    observeElementRect: (instance, onRect) =>
      observeElementRect(instance, (rect) =>
        onRect(rect.height > 0 ? rect : { width: rect.width, height: WINDOW }),
      ),
  });
  return (
    <>
      <div
        ref={scroller}
        className="answer-chart answer-chart--scroll"
        aria-hidden="true"
        data-testid="answers.chart"
      >
        <div className="answer-chart__rows" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((block) => (
            <div
              key={block.key}
              className="answer-chart__block"
              style={{ top: block.start, height: block.size }}
            >
              <ChoiceBars
                data={data.slice(block.index * BLOCK, block.index * BLOCK + rowsIn(block.index))}
                width={width}
                height={block.size}
                labelWidth={labelWidth}
                probabilityMax={probabilityMax}
                noAxis
              />
            </div>
          ))}
        </div>
      </div>
      <ProbabilityAxis
        width={width}
        left={MARGIN.left + labelWidth}
        right={MARGIN.right}
        max={probabilityMax}
      />
    </>
  );
}

/** The exact numbers of one option, on hover. */
const ChoiceTooltip = barTooltip<ChoiceBar>((bar) => (
  <>
    <div className="chart-tooltip__title">
      {bar.label}
      {bar.chosen ? ' · chosen' : ''}
    </div>
    <div className="num">
      p = {formatFixed2(bar.probability)} · rank {bar.rank}
    </div>
    {bar.description && <div className="chart-tooltip__text">{bar.description}</div>}
  </>
));
