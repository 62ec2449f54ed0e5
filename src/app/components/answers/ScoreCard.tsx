// A score answer: one bar per level in level order, labelled with its legend text, and the expected score marked.
import { Bar, BarChart, ReferenceLine, Tooltip, YAxis } from 'recharts';
import type { ScoreAnswer } from '../../../contract';
import { formatFixed2, scoreSeries } from '../../../core/answerSeries';
import type { ScoreBar } from '../../../core/answerSeries';
import { useElementWidth } from '../useElementWidth';
import { CHART, clip, labelColumnWidth } from './chartTheme';
import { barTooltip, barWithValue, plainTick, probabilityGridAndAxis } from './chartParts';
import { Confidence, reportedConfidence } from './Confidence';
import { ProbabilityTable } from './ProbabilityTable';

export interface ScoreCardProps {
  name: string;
  answer: ScoreAnswer;
  /** The levels as sent, for labels when the answer has no legend. */
  criteria?: unknown;
  probabilityMax?: number;
  /**
   * 'index' labels the bars with level numbers only, for narrow cards side by side (the comparison shows the level
   * texts once per question); default 'text', "0 · Calm, just stating facts".
   */
  levelLabels?: 'text' | 'index';
}

/** Rows are taller than choice rows: a score has at most 10 levels and their texts are longer. */
const ROW = 30;

/** The chart and its text equivalent for one score answer. */
export function ScoreCard({
  name,
  answer,
  criteria,
  probabilityMax = 1,
  levelLabels = 'text',
}: ScoreCardProps) {
  const series = scoreSeries(answer, criteria);
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const labels = series.bars.map((b) =>
    levelLabels === 'index' ? String(b.level) : `${b.level} · ${b.label}`,
  );
  const labelWidth = labelColumnWidth(labels, 34);
  const data = series.bars.map((b) => ({ ...b, fill: b.mostLikely ? CHART.barStrong : CHART.bar }));
  const height = series.bars.length * ROW + 30;
  const ticks = series.bars.map((b) => b.level);

  return (
    <>
      <p className="answer-headline">
        <span className="answer-headline__value num" data-testid="answers.score">
          {formatFixed2(series.expected)}
        </span>
        <span className="muted">expected level on 0–{series.maxLevel}</span>
        <Confidence value={answer.confidence} server={reportedConfidence(answer)} />
      </p>
      <div ref={ref} className="answer-chart" aria-hidden="true" data-testid="answers.chart">
        <BarChart
          layout="vertical"
          width={width}
          height={height}
          data={data}
          margin={{ top: 4, right: 64, bottom: 2, left: 4 }}
          accessibilityLayer={false}
        >
          {probabilityGridAndAxis(probabilityMax)}
          <YAxis
            type="number"
            dataKey="level"
            domain={[-0.5, series.maxLevel + 0.5]}
            ticks={ticks}
            interval={0}
            width={labelWidth}
            tick={plainTick(
              (level) => clip(labels[Number(level)] ?? String(level), 34),
              (level) => labels[Number(level)] ?? String(level),
            )}
          />
          <Tooltip
            cursor={{ fill: 'var(--chart-cursor)' }}
            content={<ScoreTooltip />}
            isAnimationActive={false}
          />
          <Bar dataKey="probability" barSize={ROW - 10} isAnimationActive={false} shape={barWithValue} />
          <ReferenceLine
            y={series.expected}
            stroke={CHART.reference}
            strokeDasharray="4 3"
            ifOverflow="extendDomain"
            label={{
              // In the right margin, clear of the bars: the marker's value where the dashed line ends.
              value: `◂ ${formatFixed2(series.expected)}`,
              position: 'right',
              fill: CHART.reference,
              fontSize: 11,
            }}
          />
        </BarChart>
      </div>
      <ProbabilityTable
        caption={`${name}: probability of each level, lowest first; expected level ${formatFixed2(series.expected)}`}
        columns={['Level', 'Probability', 'Description']}
        rows={series.bars.map((b) => [String(b.level), formatFixed2(b.probability), b.label])}
      />
    </>
  );
}

/** The exact numbers of one level, on hover. */
const ScoreTooltip = barTooltip<ScoreBar>((bar) => (
  <>
    <div className="chart-tooltip__title">Level {bar.level}</div>
    <div className="num">p = {formatFixed2(bar.probability)}</div>
    <div className="chart-tooltip__text">{bar.label}</div>
  </>
));
