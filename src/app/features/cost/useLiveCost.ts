// The live token count of what the editors hold: counted off the page's thread shortly after typing pauses.
import { useEffect, useRef, useState } from 'react';
import type { CostBreakdown } from '../../../core/cost';
import { createCostCounter } from './costCounter';
import type { CostCounter } from './costCounter';

/** Typing pause before a recount: short enough to feel live, long enough not to count every keystroke of a burst. */
export const COST_DEBOUNCE_MS = 150;

let shared: CostCounter | null = null;
/** One counter (one worker) for the whole app, started on first use. */
const counter = (): CostCounter => (shared ??= createCostCounter());

export interface LiveCost {
  /** The latest count, or null before the first one arrives. */
  breakdown: CostBreakdown | null;
  /** True while a newer text waits to be counted. */
  counting: boolean;
  /** True when the editors do not parse: the count shown is of the last text that did. */
  stale: boolean;
  error: string | null;
}

/**
 * Counts `request` (state and questions as parsed from the editors; null when they do not parse) for `runs` requests
 * per Run. The first count starts at once, later ones after a pause of `delayMs`.
 */
export function useLiveCost(
  request: { state?: unknown; questions?: unknown } | null,
  runs: number,
  delayMs = COST_DEBOUNCE_MS,
): LiveCost {
  const [result, setResult] = useState<{ breakdown: CostBreakdown | null; error: string | null }>({
    breakdown: null,
    error: null,
  });
  const [counting, setCounting] = useState(request !== null);
  const latest = useRef(0);
  const first = useRef(true);

  useEffect(() => {
    if (request === null) {
      setCounting(false);
      return;
    }
    const seq = ++latest.current;
    setCounting(true);
    const start = (): void => {
      counter()
        .count({ state: request.state, questions: request.questions }, runs)
        .then(
          (breakdown) => {
            if (seq === latest.current) setResult({ breakdown, error: null });
          },
          (error: unknown) => {
            if (seq === latest.current)
              setResult((r) => ({ ...r, error: error instanceof Error ? error.message : String(error) }));
          },
        )
        .finally(() => {
          if (seq === latest.current) setCounting(false);
        });
    };
    if (first.current) {
      first.current = false;
      start();
      return;
    }
    const timer = setTimeout(start, delayMs);
    return () => clearTimeout(timer);
  }, [request, runs, delayMs]);

  return { ...result, counting, stale: request === null && result.breakdown !== null };
}
