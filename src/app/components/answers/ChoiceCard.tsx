// A choice answer: every option as a horizontal bar, most probable first, the chosen label highlighted.
import { useId, useMemo, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChoiceAnswer } from '../../../contract';
import {
  BAR_ROW_HEIGHT,
  CHOICE_TOP,
  barChartHeight,
  choiceSeries,
  formatFixed2,
} from '../../../core/answerSeries';
import type { ChoiceBar } from '../../../core/answerSeries';
import { useElementWidth } from '../useElementWidth';
import { CHART, clip, labelColumnWidth, probabilityTick, probabilityTicks } from './chartTheme';
import { ProbabilityAxis, barWithValue, plainTick } from './chartParts';
import { Confidence } from './Confidence';
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
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const labelWidth = useMemo(() => labelColumnWidth(series.shown.map((b) => b.label)), [series.shown]);
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
  // Past the top 20 the chart scrolls in its card; its axis is drawn apart, under it, to stay in view.
  const scrolling = data.length > CHOICE_TOP;
  const height = scrolling
    ? data.length * BAR_ROW_HEIGHT + MARGIN.top + MARGIN.bottom
    : barChartHeight(data.length);
  const chosen = series.all.find((b) => b.chosen);
  // A comparison shows one card per column for the same question: the id must be unique per card, not per name.
  const tableId = `answers-${useId()}-table`;

  return (
    <>
      <p className="answer-headline">
        <span className="answer-headline__value" data-testid="answers.choice">
          {answer.choice}
        </span>
        {chosen && <span className="num answer-headline__p">p = {formatFixed2(chosen.probability)}</span>}
        <Confidence value={answer.confidence} />
      </p>
      {series.tiedAtTop.length > 0 && (
        <p className="answer-note" data-testid="answers.tie">
          Tie at the top: {series.tiedAtTop.join(', ')} (
          {formatFixed2(series.all.find((b) => b.rank === 1)!.probability)} each). The service picks the first
          in criteria order.
        </p>
      )}
      <div
        ref={ref}
        className={`answer-chart${scrolling ? ' answer-chart--scroll' : ''}`}
        aria-hidden="true"
        data-testid="answers.chart"
      >
        <BarChart
          layout="vertical"
          width={width}
          height={height}
          data={data}
          margin={MARGIN}
          barCategoryGap={3}
          accessibilityLayer={false}
        >
          <CartesianGrid horizontal={false} stroke={CHART.grid} />
          <XAxis
            type="number"
            domain={[0, probabilityMax]}
            ticks={probabilityTicks(probabilityMax)}
            tickFormatter={probabilityTick}
            tick={{ fontSize: CHART.fontSize, fill: CHART.axis }}
            allowDataOverflow
            hide={scrolling}
          />
          <YAxis
            type="category"
            dataKey="label"
            width={labelWidth}
            interval={0}
            tick={LABEL_TICK}
            tickLine={false}
          />
          <Tooltip
            cursor={{ fill: 'rgba(35, 87, 198, 0.06)' }}
            content={<ChoiceTooltip />}
            isAnimationActive={false}
          />
          <Bar dataKey="probability" isAnimationActive={false} shape={barWithValue} />
        </BarChart>
      </div>
      {scrolling && (
        <ProbabilityAxis
          width={width}
          left={MARGIN.left + labelWidth}
          right={MARGIN.right}
          max={probabilityMax}
        />
      )}
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

const LABEL_TICK = plainTick(
  (v) => clip(String(v)),
  (v) => String(v),
);

interface TooltipProps {
  active?: boolean;
  payload?: readonly { payload?: ChoiceBar }[];
}

/** The exact numbers of one option, on hover. */
function ChoiceTooltip({ active, payload }: TooltipProps) {
  const bar = payload?.[0]?.payload;
  if (!active || !bar) return null;
  return (
    <div className="chart-tooltip">
      <div className="chart-tooltip__title">
        {bar.label}
        {bar.chosen ? ' · chosen' : ''}
      </div>
      <div className="num">
        p = {formatFixed2(bar.probability)} · rank {bar.rank}
      </div>
      {bar.description && <div className="chart-tooltip__text">{bar.description}</div>}
    </div>
  );
}
