// One figure as people read it: the value, its 95% interval and n, with the method in the tooltip; an undefined
// figure says why instead of showing 0 or NaN.
import type { Figure } from '../../../core/alignment/types';

const f2 = (x: number): string => x.toFixed(2);

/** "0.62 (0.55 to 0.69), n = 480", or "undefined: <reason>". */
export function figureText(f: Figure | undefined): string {
  if (!f) return '—';
  if (f.value === null) return `undefined: ${f.undefinedReason ?? 'no rows'}`;
  const ci = f.lo === null || f.hi === null ? 'no interval' : `95% CI ${f2(f.lo)} to ${f2(f.hi)}`;
  return `${f2(f.value)} (${ci}), n = ${f.n}`;
}

export function FigureText({ figure, testId }: { figure: Figure | undefined; testId?: string }) {
  return (
    <span
      title={figure?.method}
      data-testid={testId}
      className={figure?.value === null ? 'muted' : undefined}
    >
      {figureText(figure)}
    </span>
  );
}
