// Limits, prices and retry settings of the Evaluation Service, as named constants.
// Published list figures change without notice: the UI shows costs as estimates.

/** Fewest and most labels a `choice` question may carry. */
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 255;
/** Fewest and most levels a `score` question may carry. */
export const MIN_LEVELS = 2;
export const MAX_LEVELS = 10;
/** Input tokens a whole request may hold ("64k"). */
export const MAX_REQUEST_INPUT_TOKENS = 64_000;
/** Input tokens the state plus the longest single question may hold ("32k"). */
export const MAX_STATE_PLUS_QUESTION_TOKENS = 32_000;
/** Published rate limits: requests per minute and input tokens per second. */
export const RATE_LIMIT_REQUESTS_PER_MINUTE = 1200;
export const RATE_LIMIT_INPUT_TOKENS_PER_SECOND = 250_000;
/**
 * Prices and costs are in US dollars: every public price list of the service and its servers quotes $ per million
 * input tokens (docs/servers.md); a target's configured price is read in the same currency.
 */
export const PRICE_CURRENCY = 'USD';

/** Money in the browser's locale: two decimals from a dollar up, two significant digits below (never "0.00"). */
export function formatCost(cost: number): string {
  return (cost === 0 || cost >= 1 ? DOLLARS : CENTS_AND_LESS).format(cost);
}
const DOLLARS = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: PRICE_CURRENCY,
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const CENTS_AND_LESS = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: PRICE_CURRENCY,
  minimumSignificantDigits: 2,
  maximumSignificantDigits: 2,
});

/** Published input price per million input tokens; output is free. */
export const PRICE_PER_MILLION_INPUT_TOKENS = 0.042;

/** Client retry policy (contract, "Client retry policy"). */
export const RETRY_POLICY = {
  maxRetries: 2,
  initialBackoffMs: 500,
  maxBackoffMs: 5_000,
  jitter: 0.25,
  /** Retry-After longer than this is not honoured; the backoff applies instead. */
  maxRetryAfterMs: 60_000,
  /** Per-attempt timeout unless the caller sets one. */
  defaultTimeoutMs: 30_000,
} as const;

/** The evaluate route's default path; some deployments serve it elsewhere. */
export const DEFAULT_EVALUATE_PATH = '/v1/evaluate';
export const MODELS_PATH = '/v1/models';

/** The hover text of a cost estimate at `pricePerMillion` (null: the target states no price). */
export function priceNote(pricePerMillion: number | null): string {
  if (pricePerMillion === null) return "Price unknown: this target's price per token is not configured.";
  if (pricePerMillion === 0) return 'Free: a server on this machine.';
  return `Estimate at ${formatCost(pricePerMillion)} per million input tokens (${PRICE_CURRENCY}); output is free.`;
}

/** Estimated cost of a number of input tokens at a price per million (default: the published list price). */
export function estimateCost(
  inputTokens: number,
  pricePerMillion: number = PRICE_PER_MILLION_INPUT_TOKENS,
): number {
  return (inputTokens * pricePerMillion) / 1_000_000;
}
