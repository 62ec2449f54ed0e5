// Messages between the page and the cost worker.
import type { CostBreakdown } from '../../../core/cost';

/** Count the tokens of what the editors hold; `runs` is how many requests one Run sends. */
export interface CostRequestMessage {
  id: number;
  request: { state?: unknown; questions?: unknown };
  runs: number;
}

export type CostReplyMessage = { id: number; breakdown: CostBreakdown } | { id: number; error: string };
