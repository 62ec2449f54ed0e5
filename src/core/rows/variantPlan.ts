// What a variant of a run will send before it runs: stored answers are looked up only under a pinned model, the same
// target and the same question (dedup.ts), so an alias sends every row with every question. Said in requests and
// cost, with the version the service answered the run with, which pins the alias.
import type { Questions } from '../../contract';
import { classifyModelId, estimateCost } from '../../contract';
import { canonicalJson } from '../canonicalJson';
import type { ResultRow } from './results';

/** Why a variant sends what it sends. */
export type VariantSendReason = 'alias' | 'other-model' | 'other-target' | 'changed' | 'nothing';

export interface VariantPlan {
  /** Requests sent: one per row that has a question to ask. */
  requests: number;
  /** The questions each of those requests asks (all of them, or the changed ones). */
  asked: string[];
  /** Estimated input tokens: what the run billed for its rows, so an upper bound when fewer questions are asked. */
  tokens: number;
  /** Their cost at the target's price; null when the target states no price. */
  cost: number | null;
  reason: VariantSendReason;
  /** The versioned model the service answered the run with, which an alias can be pinned to; null when unknown. */
  pinTo: string | null;
}

/** The versioned model that answered most of a run's rows (the response's `model`), or null when none did. */
export function answeredBy(rows: readonly ResultRow[]): string | null {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const model = r.response?.model;
    if (model && classifyModelId(model) === 'versioned') counts.set(model, (counts.get(model) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [model, n] of counts) if (best === null || n > counts.get(best)!) best = model;
  return best;
}

/** A run's input tokens: what each answered row billed, and their mean for a row not answered yet. */
function runTokens(rows: readonly ResultRow[]): number {
  let billed = 0;
  let answered = 0;
  for (const r of rows) {
    const t = r.outcome?.inputTokens;
    if (t === undefined) continue;
    billed += t;
    answered++;
  }
  return answered === 0 ? 0 : Math.round(billed + (billed / answered) * (rows.length - answered));
}

/**
 * What a variant with `questions`, `model` and `targetId` sends for a run's rows, its tokens estimated from what the
 * run billed; `price` is the target's per million input tokens (null: unknown; undefined: the published price).
 */
export function variantPlan(
  base: { questions: Questions; targetId: string; rows: readonly ResultRow[] },
  variant: { questions: Questions; model: string; targetId: string },
  price: number | null | undefined,
): VariantPlan {
  const pinTo = answeredBy(base.rows);
  const all = Object.keys(variant.questions);
  const unchanged = (name: string): boolean =>
    name in base.questions &&
    canonicalJson(base.questions[name] ?? null) === canonicalJson(variant.questions[name] ?? null);
  const model = variant.model.trim();
  const reason: VariantSendReason =
    classifyModelId(model) !== 'versioned'
      ? 'alias'
      : variant.targetId !== base.targetId
        ? 'other-target'
        : model !== pinTo
          ? 'other-model'
          : all.every(unchanged)
            ? 'nothing'
            : 'changed';
  const asked = reason === 'nothing' ? [] : reason === 'changed' ? all.filter((n) => !unchanged(n)) : all;
  const requests = asked.length === 0 ? 0 : base.rows.length;
  const tokens = asked.length === 0 ? 0 : runTokens(base.rows);
  return {
    requests,
    asked,
    tokens,
    cost: price === null ? null : estimateCost(tokens, price),
    reason,
    pinTo,
  };
}
