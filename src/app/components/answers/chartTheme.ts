// Chart colours and sizes: the CSS tokens of styles/base.css (SVG presentation attributes resolve var()), so the
// charts follow the light and dark themes without re-rendering.

export const CHART = {
  chosen: 'var(--chart-chosen)',
  bar: 'var(--chart-bar)',
  barStrong: 'var(--chart-bar-strong)',
  yes: 'var(--chart-chosen)',
  no: 'var(--chart-bar)',
  grid: 'var(--chart-grid)',
  axis: 'var(--color-muted)',
  reference: 'var(--chart-reference)',
  fontSize: 12,
} as const;

/** Longest label drawn on an axis before it is cut with an ellipsis (the full text is in the tooltip and the table). */
export const AXIS_LABEL_CHARS = 28;

/** A label cut to `max` characters with an ellipsis. */
export const clip = (text: string, max = AXIS_LABEL_CHARS): string =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`;

/** Width of the label column for a set of labels, in pixels, within sensible bounds. */
export function labelColumnWidth(labels: readonly string[], max = AXIS_LABEL_CHARS): number {
  const longest = labels.reduce((n, l) => Math.max(n, Math.min(l.length, max)), 0);
  // About 7 px per character at 12 px in the system UI font, plus the tick gap.
  return Math.max(48, Math.min(240, Math.round(longest * 7) + 16));
}

/** Tick labels of a probability axis: two decimals, like every number on the cards. */
export const probabilityTick = (t: number): string => (Math.round(t * 100) / 100).toFixed(2);

/** Ticks of a probability axis up to `max`, every quarter. */
export const probabilityTicks = (max = 1): number[] => [0, 0.25, 0.5, 0.75, 1].filter((t) => t <= max + 1e-9);
