// Plain SVG parts for the bar charts. Recharts' own ticks and labels measure every string to wrap it; with 255 bars
// that measuring is most of the render, and these labels are clipped to a known width anyway.
import type { ReactNode } from 'react';
import { CartesianGrid, XAxis } from 'recharts';
import { formatFixed2 } from '../../../core/answerSeries';
import { CHART, probabilityTick, probabilityTicks } from './chartTheme';

interface TickProps {
  x: number | string;
  y: number | string;
  payload: { value: unknown };
}

/** A y-axis tick as one plain text, right-aligned against the axis; the full label is its tooltip. */
export const plainTick =
  (label: (value: unknown) => string, full: (value: unknown) => string = label) =>
  (props: TickProps): ReactNode => {
    const shown = label(props.payload.value);
    const whole = full(props.payload.value);
    return (
      <text
        x={Number(props.x) - 6}
        y={Number(props.y)}
        dy="0.32em"
        textAnchor="end"
        fontSize={CHART.fontSize}
        fill={CHART.axis}
        className="recharts-cartesian-axis-tick-value"
      >
        {/* Only a clipped label needs its whole text on hover. */}
        {shown !== whole && <title>{whole}</title>}
        {shown}
      </text>
    );
  };

interface BarShapeProps {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  fill?: string;
  value?: number | [number, number];
}

/** A bar as a plain rectangle with its value printed just past its end. */
export function barWithValue(props: BarShapeProps): ReactNode {
  const { x = 0, y = 0, width = 0, height = 0, fill } = props;
  const value = Array.isArray(props.value) ? props.value[1] : props.value;
  return (
    <g>
      <rect x={x} y={y} width={Math.max(0, width)} height={Math.max(0, height)} fill={fill} rx={2} />
      {value !== undefined && (
        <text x={x + Math.max(0, width) + 4} y={y + height / 2} dy="0.32em" className="chart-value">
          {formatFixed2(value)}
        </text>
      )}
    </g>
  );
}

export interface ProbabilityAxisProps {
  /** Width of the chart it belongs to, and where that chart's plot area starts and ends (its margins). */
  width: number;
  left: number;
  right: number;
  max: number;
}

/** A probability axis drawn on its own, under a chart that scrolls, so the scale stays in view. */
export function ProbabilityAxis({ width, left, right, max }: ProbabilityAxisProps) {
  const plot = Math.max(0, width - left - right);
  return (
    <svg width={width} height={22} className="probability-axis" aria-hidden="true" data-testid="answers.axis">
      <line x1={left} x2={left + plot} y1={0.5} y2={0.5} stroke={CHART.axis} />
      {probabilityTicks(max).map((t) => {
        const x = left + (max > 0 ? t / max : 0) * plot;
        return (
          <g key={t}>
            <line x1={x} x2={x} y1={0} y2={5} stroke={CHART.axis} />
            <text x={x} y={17} textAnchor="middle" fontSize={CHART.fontSize} fill={CHART.axis}>
              {probabilityTick(t)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/**
 * The grid and the probability x-axis of a horizontal bar chart, 0 to `max` by quarters; `hide` keeps the scale but
 * draws no axis. Returned as elements, not a component, because recharts reads its axes from BarChart's children.
 */
export function probabilityGridAndAxis(max: number, hide = false): ReactNode {
  return [
    <CartesianGrid key="grid" horizontal={false} stroke={CHART.grid} />,
    <XAxis
      key="x"
      type="number"
      domain={[0, max]}
      ticks={probabilityTicks(max)}
      tickFormatter={probabilityTick}
      tick={{ fontSize: CHART.fontSize, fill: CHART.axis }}
      // Every tick, however narrow the chart (recharts would drop some), and no clip on the plot area: the clip
      // would cut the value printed past the longest bar ("0.75" drawn as "(").
      interval={0}
      hide={hide}
    />,
  ];
}

interface BarTooltipProps<T> {
  active?: boolean;
  payload?: readonly { payload?: T }[];
}

/** A recharts tooltip content for one bar: nothing unless a bar is hovered, else `render(bar)` in the tooltip box. */
export function barTooltip<T>(render: (bar: T) => ReactNode) {
  return function BarTooltip({ active, payload }: BarTooltipProps<T>) {
    const bar = payload?.[0]?.payload;
    if (!active || !bar) return null;
    return <div className="chart-tooltip">{render(bar)}</div>;
  };
}
