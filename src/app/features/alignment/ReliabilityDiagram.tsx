// The reliability diagram: for each probability bin, how often the judge turned out right (or, for yes/no, how often
// the label was yes) against the probability it gave. A calibrated judge sits on the diagonal.
import { CartesianGrid, ComposedChart, Line, ReferenceLine, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReliabilityBin } from '../../../core/alignment/calibration';
import { CHART } from '../../components/answers/chartTheme';

export interface ReliabilityDiagramProps {
  question: string;
  bins: readonly ReliabilityBin[];
  /** What the x axis is: "top probability" or "P(yes)". */
  probabilityName: string;
  width?: number;
}

export function ReliabilityDiagram({
  question,
  bins,
  probabilityName,
  width = 320,
}: ReliabilityDiagramProps) {
  const points = bins
    .filter((b) => b.count > 0)
    .map((b) => ({ x: b.meanPredicted!, y: b.observed!, count: b.count }));
  const described = points.map((p) => `${p.x.toFixed(2)} → ${p.y.toFixed(2)} (${p.count} rows)`).join('; ');
  return (
    <figure className="align-reliability" data-testid={`align.reliability.${question}`}>
      <ComposedChart
        width={width}
        height={width * 0.8}
        data={points}
        margin={{ top: 8, right: 12, bottom: 24, left: 8 }}
      >
        <CartesianGrid stroke={CHART.grid} />
        <XAxis
          type="number"
          dataKey="x"
          domain={[0, 1]}
          ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]}
          fontSize={CHART.fontSize}
          label={{ value: probabilityName, position: 'insideBottom', offset: -12, fontSize: CHART.fontSize }}
        />
        <YAxis
          type="number"
          dataKey="y"
          domain={[0, 1]}
          ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]}
          fontSize={CHART.fontSize}
        />
        <ReferenceLine
          segment={[
            { x: 0, y: 0 },
            { x: 1, y: 1 },
          ]}
          stroke={CHART.barStrong}
          strokeDasharray="4 4"
        />
        <Line type="linear" dataKey="y" stroke={CHART.chosen} dot={false} isAnimationActive={false} />
        <Scatter dataKey="y" fill={CHART.chosen} isAnimationActive={false} />
        <Tooltip
          formatter={(value: unknown) => (typeof value === 'number' ? value.toFixed(2) : String(value))}
          labelFormatter={(label: unknown) => `${probabilityName} ${Number(label).toFixed(2)}`}
        />
      </ComposedChart>
      <figcaption className="muted">
        Reliability of <code>{question}</code>: observed share against {probabilityName}, {bins.length}{' '}
        equal-width bins. {points.length ? described : 'No answered labelled rows yet.'}
      </figcaption>
    </figure>
  );
}
