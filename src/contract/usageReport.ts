// Usage and cost as each server reports them, with where each figure came from: `output_tokens` may be missing
// (Alibaba Bailian) or not zero (Ollama, llamacpp-jev); the cost may be in the body (OpenRouter's `usage.cost`) or a
// header (LiteLLM's `x-litellm-response-cost`); cached tokens come in `input_tokens_details` (OpenAI, OpenRouter).
import { z } from 'zod';
import { estimateCost, formatCost, PRICE_PER_MILLION_INPUT_TOKENS } from './limits';

/** A cost the server reported, and where it said it. */
export const ReportedCostSchema = z.object({
  amount: z.number().min(0),
  /** Where the figure was read: "the x-litellm-response-cost header", "usage.cost in the answer". */
  source: z.string(),
});
export type ReportedCost = z.infer<typeof ReportedCostSchema>;

/** Headers that carry a server's own cost figure for the call. */
export const COST_HEADERS = ['x-litellm-response-cost'] as const;

/** What a server reported about one call's usage; null where it said nothing. */
export interface UsageReport {
  inputTokens: number | null;
  /** null: the server sent no output_tokens (a missing field is not a zero). */
  outputTokens: number | null;
  cachedTokens: number | null;
  cost: ReportedCost | null;
}

const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;

/** Reads usage from an answer body and the response's headers (lower-case names). */
export function readUsage(body: unknown, headers: Readonly<Record<string, string>> = {}): UsageReport {
  const usage =
    body && typeof body === 'object'
      ? ((body as { usage?: unknown }).usage as Record<string, unknown> | undefined)
      : undefined;
  const u = usage && typeof usage === 'object' ? usage : {};
  const details = (u.input_tokens_details ?? u.prompt_tokens_details) as Record<string, unknown> | undefined;
  let cost: ReportedCost | null = null;
  const inBody = count(u.cost);
  if (inBody !== null) cost = { amount: inBody, source: 'usage.cost in the answer' };
  for (const name of COST_HEADERS) {
    const raw = headers[name]?.trim();
    if (cost === null && raw && /^\d+(\.\d+)?(e-?\d+)?$/i.test(raw))
      cost = { amount: Number(raw), source: `the ${name} header` };
  }
  return {
    inputTokens: count(u.input_tokens),
    outputTokens: count(u.output_tokens),
    cachedTokens: details && typeof details === 'object' ? count(details.cached_tokens) : null,
    cost,
  };
}

/** The cost line's figure: the server's own when it reported one, else the estimate from the price list. */
export function costLine(
  response: { usage: { input_tokens: number }; cost?: ReportedCost },
  pricePerMillion: number = PRICE_PER_MILLION_INPUT_TOKENS,
): { amount: number; reported: boolean; source: string } {
  if (response.cost)
    return {
      amount: response.cost.amount,
      reported: true,
      source: `reported by the server in ${response.cost.source}`,
    };
  const amount =
    pricePerMillion === PRICE_PER_MILLION_INPUT_TOKENS
      ? estimateCost(response.usage.input_tokens)
      : (response.usage.input_tokens * pricePerMillion) / 1_000_000;
  return {
    amount,
    reported: false,
    source: `estimated from ${response.usage.input_tokens.toLocaleString()} input tokens at the list price of ${formatCost(pricePerMillion)} per million; output is free`,
  };
}
