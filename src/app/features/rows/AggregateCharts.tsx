// Aggregates per question over the answered rows, drawn with recharts: choice counts, histograms of expected scores
// and of the probability of yes, and a confidence histogram. Each chart has its numbers in a table for screen readers.
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { Bin, QuestionAggregate } from '../../../core/rows/results';
import { useElementWidth } from '../../components/useElementWidth';
import { CHART, clip, labelColumnWidth } from '../../components/answers/chartTheme';
import { formatCount } from './format';
import { KIND_NAME } from '../../components/answers/kindName';

const binLabel = (b: Bin, digits: number): string => `${b.x0.toFixed(digits)}–${b.x1.toFixed(digits)}`;

interface Datum {
  name: string;
  count: number;
}

/** A vertical-bars histogram (or horizontal bars for choice labels). */
function CountChart({
  data,
  title,
  horizontal,
  testId,
}: {
  data: Datum[];
  title: string;
  horizontal?: boolean;
  testId: string;
}) {
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const labelWidth = horizontal ? labelColumnWidth(data.map((d) => d.name)) : 0;
  const height = horizontal ? Math.min(20, data.length) * 24 + 30 : 170;
  const shown = horizontal ? data.slice(0, 20) : data;
  return (
    <figure className="rows-chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div ref={ref} aria-hidden="true">
        <BarChart
          width={width}
          height={height}
          data={shown}
          layout={horizontal ? 'vertical' : 'horizontal'}
          margin={{ top: 6, right: 16, bottom: 4, left: 4 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke={CHART.grid} vertical={!horizontal} horizontal={!horizontal} />
          {horizontal ? (
            <>
              <XAxis
                type="number"
                allowDecimals={false}
                tick={{ fontSize: CHART.fontSize, fill: CHART.axis }}
              />
              <YAxis
                type="category"
                dataKey="name"
                width={labelWidth}
                interval={0}
                tickFormatter={(v: string) => clip(v)}
                tick={{ fontSize: CHART.fontSize, fill: CHART.axis }}
              />
            </>
          ) : (
            <>
              <XAxis dataKey="name" interval="preserveStartEnd" tick={{ fontSize: 11, fill: CHART.axis }} />
              <YAxis allowDecimals={false} width={44} tick={{ fontSize: CHART.fontSize, fill: CHART.axis }} />
            </>
          )}
          <Tooltip isAnimationActive={false} cursor={{ fill: 'var(--chart-cursor)' }} />
          <Bar dataKey="count" fill={CHART.barStrong} isAnimationActive={false} />
        </BarChart>
      </div>
      {/* Hidden by a wrapper: a table never gets narrower than its content. */}
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <tbody>
            {data.map((d) => (
              <tr key={d.name}>
                <th scope="row">{d.name}</th>
                <td>{d.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {horizontal && data.length > 20 && (
        <p className="muted">The 20 most frequent of {data.length} labels.</p>
      )}
    </figure>
  );
}

/** One card per question. */
export function AggregateCharts({ aggregates }: { aggregates: readonly QuestionAggregate[] }) {
  return (
    <div className="rows-charts" data-testid="rows.charts">
      {aggregates.map((a) => (
        <section
          key={a.question}
          className="rows-chart-card panel"
          data-testid="rows.chart.card"
          aria-label={a.question}
        >
          <h3>
            {a.question} <span className="kind-tag">{KIND_NAME[a.type]}</span>{' '}
            <span className="muted">
              {formatCount(a.answered)} answered
              {a.refused > 0 ? `, ${formatCount(a.refused)} refused (not counted)` : ''}
            </span>
          </h3>
          {a.type === 'choice' && (
            <>
              <CountChart
                testId="rows.chart.choice"
                title={`${a.question}: rows per chosen label`}
                horizontal
                data={[...a.counts]
                  .sort((x, y) => y.count - x.count)
                  .map((c) => ({ name: c.label, count: c.count }))}
              />
              <CountChart
                testId="rows.chart.confidence"
                title={`${a.question}: confidence`}
                data={a.confidence.map((b) => ({ name: binLabel(b, 1), count: b.count }))}
              />
            </>
          )}
          {a.type === 'score' && (
            <>
              <CountChart
                testId="rows.chart.score"
                title={`${a.question}: expected score (0–${a.levels - 1})`}
                data={a.scores.map((b) => ({ name: binLabel(b, 1), count: b.count }))}
              />
              <CountChart
                testId="rows.chart.confidence"
                title={`${a.question}: confidence`}
                data={a.confidence.map((b) => ({ name: binLabel(b, 1), count: b.count }))}
              />
            </>
          )}
          {a.type === 'noul' && (
            <CountChart
              testId="rows.chart.yes"
              title={`${a.question}: probability of yes`}
              data={a.yes.map((b) => ({ name: binLabel(b, 1), count: b.count }))}
            />
          )}
        </section>
      ))}
    </div>
  );
}
