// One figure as people read it: the value, its 95% interval and n, with the method in the tooltip; an undefined
// figure says why instead of showing 0 or NaN. With words: what the value means for the question, which way is
// better and a reading scale (src/core/alignment/figureWords.ts).
import { FIGURES, intervalText, plainText, readFigure } from '../../../core/alignment/figureWords';
import type { FigureContext } from '../../../core/alignment/figureWords';
import type { Figure } from '../../../core/alignment/types';

const f2 = (x: number): string => plainText(x, 2);

/** "0.62 (0.55 to 0.69), n = 480", or "undefined: <reason>". */
export function figureText(f: Figure | undefined): string {
  if (!f) return '—';
  if (f.value === null) return `undefined: ${f.undefinedReason ?? 'no rows'}`;
  const ci = f.lo === null || f.hi === null ? 'no interval' : `95% CI ${intervalText(f.lo, f.hi, 2, false)}`;
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

export interface FigureWordsProps {
  figureKey: string;
  figure: Figure | undefined;
  context: FigureContext;
  /** The report's resampling, named one click further with the method. */
  bootstrap: { B: number; seed: number };
  testId: string;
  /** The value moved with the threshold; its interval is computed again. */
  pending?: boolean;
}

/** One figure with what it means in words, which way is better, its reading scale, and the method one click further. */
export function FigureWithWords({
  figureKey,
  figure,
  context,
  bootstrap,
  testId,
  pending,
}: FigureWordsProps) {
  const reading = figure ? readFigure(figureKey, figure, context) : null;
  return (
    <>
      {pending && figure?.value != null ? (
        <span data-testid={testId} aria-busy="true" className="align-pending">
          {figure.value.toFixed(2)} (interval updating…), n = {figure.n}
        </span>
      ) : (
        <FigureText figure={figure} testId={testId} />
      )}
      {reading && (
        <div className="align-words" data-testid={`${testId}.words`}>
          <p>
            {reading.sentence} <strong>{reading.better}</strong>
            {reading.scale && (
              <>
                {' '}
                On {reading.scale.source}’s scale: {reading.scale.words}.
              </>
            )}
          </p>
          <details>
            <summary>Method and seed</summary>
            <p className="muted">
              {figure?.method}.{' '}
              {figure?.value !== null &&
                (FIGURES[figureKey]?.unit === 'share'
                  ? 'Interval: 95% Wilson score interval. '
                  : `Interval: 95% seeded percentile bootstrap over the rows, B = ${bootstrap.B}, seed ${bootstrap.seed} mixed with the question’s name (for very many rows the method above names the linearised interval used instead). `)}
              {reading.scale && `${reading.scale.source}: ${reading.scale.caveat}`}
            </p>
          </details>
        </div>
      )}
    </>
  );
}
