// What a check will cost before it runs: requests, input tokens and the estimate, with stored answers reused for free.
import { PRICE_PER_MILLION_INPUT_TOKENS, estimateCost, formatCost } from '../../contract';
import type { TokenCounter } from '../rows/runPlan';
import type { Probe } from './plan';
import { plural } from '../words';

/** Input tokens of a probe as the service bills them: its state and every question. */
export function probeTokens(probe: Pick<Probe, 'state' | 'questions'>, counter: TokenCounter): number {
  let total = counter.stateTokens(probe.state);
  for (const q of Object.values(probe.questions)) total += counter.questionTokens(q);
  return total;
}

export interface Budget {
  /** Every request of the check. */
  requests: number;
  /** Requests answered from stored answers: not sent, not billed. */
  reused: number;
  /** Requests that will be sent. */
  toSend: number;
  /** Input tokens of the requests that will be sent. */
  tokens: number;
  /** At the target's price; null when the target's price is unknown. */
  cost: number | null;
}

/**
 * The budget of probes of the given token counts, those marked reused costing nothing, at `inputPrice` per million
 * input tokens (the target's; null when unknown; the published price when not given).
 */
export function budgetOf(
  probes: readonly { tokens: number; reused: boolean }[],
  inputPrice: number | null = PRICE_PER_MILLION_INPUT_TOKENS,
): Budget {
  let tokens = 0;
  let reused = 0;
  for (const p of probes) {
    if (p.reused) reused++;
    else tokens += p.tokens;
  }
  return {
    requests: probes.length,
    reused,
    toSend: probes.length - reused,
    tokens,
    cost: inputPrice === null ? null : estimateCost(tokens, inputPrice),
  };
}

/** "12 requests, about $0.00010", and how many are reused when some are. */
export function describeBudget(budget: Budget): string {
  const reused =
    budget.reused > 0
      ? ` (${budget.reused === budget.requests ? 'all' : budget.reused} answered from stored answers, not billed)`
      : '';
  const cost =
    budget.cost === null
      ? `${plural(budget.tokens, 'input token')} (cost unknown: this target states no price)`
      : `about ${formatCost(budget.cost)}`;
  return `${plural(budget.requests, 'request')}${reused}, ${cost}`;
}
