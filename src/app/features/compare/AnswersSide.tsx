// The workbench's answers side: the view switch, then the single run's answers or compare mode. Compare mode (and the
// charts it draws) loads on first use, so the first screen does not pay for it.
import { Suspense, lazy } from 'react';
import type { ReactNode } from 'react';
import { useCompare } from '../../stores/compare';
import { CompareModeSwitch } from './CompareModeSwitch';
import './answersSide.css';

const CompareScreen = lazy(() => import('./CompareScreen').then((m) => ({ default: m.CompareScreen })));

/** The switch above either `answers` or the comparison. */
export function AnswersSide({ answers }: { answers: ReactNode }) {
  const open = useCompare((s) => s.open);
  return (
    <div className="answers-side" data-testid="compare.side">
      <div className="answers-side__switch">
        <CompareModeSwitch />
      </div>
      {/* A declared sideways scroller: compare columns scroll here when the window is too narrow for them. */}
      <div className="answers-side__body" data-scroller="">
        {open ? (
          <Suspense
            fallback={
              <p className="answers-side__loading" role="status">
                Loading compare mode…
              </p>
            }
          >
            <CompareScreen />
          </Suspense>
        ) : (
          answers
        )}
      </div>
    </div>
  );
}
