// The budget cap of a run in money: tokens billed, possibly billed and reserved by rows being sent count against it.
import { estimateCost, PRICE_PER_MILLION_INPUT_TOKENS } from '../../contract';
import type { RunTally } from './tally';

/** The cap, the price it is measured at, and the tokens of rows on their way out. */
export class RunBudget {
  private reserved = 0;
  /** The target's price per million input tokens; null when unknown, so no cap can hold. */
  readonly price: number | null;

  constructor(
    public maxCost: number | null,
    inputPrice: number | null | undefined,
  ) {
    this.price = inputPrice === undefined ? PRICE_PER_MILLION_INPUT_TOKENS : inputPrice;
  }

  /** Whether sending `tokens` more could pass the cap, counting what is billed, possibly billed and reserved. */
  wouldPass(tokens: number, tally: RunTally): boolean {
    // A target whose price is unknown cannot be held to a cap in money: the run says so before it starts.
    if (this.maxCost === null || this.price === null) return false;
    const committed = tally.billedTokens + tally.possiblyBilledTokens + this.reserved;
    return estimateCost(committed + tokens, this.price) > this.maxCost;
  }

  reserve(tokens: number): void {
    this.reserved += tokens;
  }

  release(tokens: number): void {
    this.reserved -= tokens;
  }

  /** The cost of `tokens` at this price; 0 when the price is unknown. */
  cost(tokens: number): number {
    return estimateCost(tokens, this.price ?? 0);
  }
}
