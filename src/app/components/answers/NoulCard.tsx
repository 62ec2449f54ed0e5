// A noul answer: the probability of yes as one bar on 0..1 with the 0.5 line, and what yes and no mean beside it.
import { Bar, BarChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { NoulAnswer } from '../../../contract';
import { formatFixed2, noulSeries } from '../../../core/answerSeries';
import { useElementWidth } from '../useElementWidth';
import { CHART, probabilityTick, probabilityTicks } from './chartTheme';
import { ProbabilityTable } from './ProbabilityTable';

export interface NoulCardProps {
  name: string;
  answer: NoulAnswer;
  /** The question's criteria as sent: {true, false} descriptions. */
  criteria?: unknown;
}

const LEANING = { yes: 'leans yes', no: 'leans no', undecided: 'undecided' } as const;

/** The chart, the criteria texts and the text equivalent for one noul answer. */
export function NoulCard({ name, answer, criteria }: NoulCardProps) {
  const series = noulSeries(answer, criteria);
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const data = [{ label: 'P(yes)', yes: series.yes, fill: series.leaning === 'yes' ? CHART.yes : CHART.no }];

  return (
    <>
      <p className="answer-headline">
        <span className="answer-headline__value num" data-testid="answers.noul">
          {formatFixed2(series.yes)}
        </span>
        <span className="muted">probability of yes · {LEANING[series.leaning]}</span>
      </p>
      <div className="noul-layout">
        <div ref={ref} className="answer-chart" aria-hidden="true" data-testid="answers.chart">
          <BarChart
            layout="vertical"
            width={width}
            height={64}
            data={data}
            margin={{ top: 14, right: 24, bottom: 2, left: 16 }}
            accessibilityLayer={false}
          >
            <XAxis
              type="number"
              domain={[0, 1]}
              ticks={probabilityTicks()}
              tickFormatter={probabilityTick}
              tick={{ fontSize: CHART.fontSize, fill: CHART.axis }}
            />
            <YAxis type="category" dataKey="label" hide />
            <Tooltip
              cursor={false}
              isAnimationActive={false}
              formatter={(v) => [formatFixed2(Number(v)), 'P(yes)']}
              labelFormatter={() => name}
            />
            <Bar
              dataKey="yes"
              barSize={20}
              isAnimationActive={false}
              background={{ fill: 'var(--color-surface-sunken)' }}
            />
            <ReferenceLine
              x={0.5}
              stroke={CHART.axis}
              strokeDasharray="3 3"
              label={{ value: '0.5', position: 'top', fill: CHART.axis, fontSize: 11 }}
            />
          </BarChart>
        </div>
        {(series.yesMeans || series.noMeans) && (
          <dl className="noul-criteria">
            {series.yesMeans && (
              <div>
                <dt>Yes</dt>
                <dd>{series.yesMeans}</dd>
              </div>
            )}
            {series.noMeans && (
              <div>
                <dt>No</dt>
                <dd>{series.noMeans}</dd>
              </div>
            )}
          </dl>
        )}
      </div>
      <ProbabilityTable
        caption={`${name}: probability of yes`}
        columns={['Answer', 'Probability']}
        rows={[
          ['yes', formatFixed2(series.yes)],
          ['no', formatFixed2(series.no)],
        ]}
      />
    </>
  );
}
