// Live cost: input tokens of the state and each question, the 32k and 64k limits, and the estimated price per run.
// Pure but heavy (it loads the ~1 MB tokenizer): the SPA imports it lazily or runs it in a Web Worker.
import {
  MAX_REQUEST_INPUT_TOKENS,
  MAX_STATE_PLUS_QUESTION_TOKENS,
  QuestionSchema,
  estimateCost,
} from '../contract';
import type { State } from '../contract';
import { countTokens, modelText, questionTokens, stateTokens, tokenLimitProblems } from '../contract/tokens';
import { isRecord } from '../contract/guards';

/** One question's input tokens. `exact` is false when the question does not validate and its count is an estimate. */
export interface QuestionCost {
  name: string;
  tokens: number;
  exact: boolean;
}

/** Use of one token limit. */
export interface LimitUse {
  used: number;
  limit: number;
  /** used / limit: 1 means full, above 1 means a 422. */
  ratio: number;
  over: boolean;
}

/** Everything the cost panel shows for the current request. */
export interface CostBreakdown {
  state: number;
  /** In the questions' document order. */
  questions: QuestionCost[];
  total: number;
  /** The question with the most tokens (null without questions); it decides the 32k limit. */
  longestQuestion: string | null;
  statePlusLongest: number;
  limits: { request: LimitUse; statePlusLongest: LimitUse };
  /** One sentence per limit passed; empty when the request fits. */
  problems: string[];
  /** Estimated cost of one request, in the price list's currency. */
  costPerRequest: number;
  /** Requests the run makes (comparison columns, file rows); 1 by default. */
  runs: number;
  /** costPerRequest * runs: a row-file estimate assumes every row's state is as long as this one. */
  costTotal: number;
}

/** Tokens of a question that does not validate, read the way the service would read a valid one. */
function looseQuestionTokens(question: unknown): number {
  if (!isRecord(question)) return countTokens(modelText(question as State));
  let total = countTokens(modelText(question.instructions as State));
  const criteria = question.criteria;
  if (Array.isArray(criteria)) for (const level of criteria) total += countTokens(modelText(level as State));
  else if (isRecord(criteria)) {
    for (const [key, value] of Object.entries(criteria)) {
      // Noul criteria send only their descriptions; choice criteria send each label too.
      const isNoulKey = question.type !== 'choice' && (key === 'true' || key === 'false');
      total += (isNoulKey ? 0 : countTokens(key)) + countTokens(modelText(value as State));
    }
  }
  return total;
}

const limitUse = (used: number, limit: number): LimitUse => ({
  used,
  limit,
  ratio: used / limit,
  over: used > limit,
});

/**
 * Token and cost accounting of a request as the reference bills it. Accepts what the editors hold: a state that is
 * undefined (does not parse) counts 0, and questions that do not validate are estimated (`exact: false`).
 */
export function costBreakdown(
  request: { state?: unknown; questions?: unknown },
  options: { runs?: number } = {},
): CostBreakdown {
  const state =
    request.state === undefined || request.state === null ? 0 : stateTokens(request.state as State);
  const questions: QuestionCost[] = isRecord(request.questions)
    ? Object.entries(request.questions).map(([name, value]) => {
        const parsed = QuestionSchema.safeParse(value);
        return parsed.success
          ? { name, tokens: questionTokens(parsed.data), exact: true }
          : { name, tokens: looseQuestionTokens(value), exact: false };
      })
    : [];
  const longest = questions.reduce<QuestionCost | null>(
    (top, q) => (top && top.tokens >= q.tokens ? top : q),
    null,
  );
  const total = state + questions.reduce((sum, q) => sum + q.tokens, 0);
  const statePlusLongest = state + (longest?.tokens ?? 0);
  const runs = Math.max(0, Math.floor(options.runs ?? 1));
  const costPerRequest = estimateCost(total);
  return {
    state,
    questions,
    total,
    longestQuestion: longest?.name ?? null,
    statePlusLongest,
    limits: {
      request: limitUse(total, MAX_REQUEST_INPUT_TOKENS),
      statePlusLongest: limitUse(statePlusLongest, MAX_STATE_PLUS_QUESTION_TOKENS),
    },
    problems: tokenLimitProblems({ state, questions: {}, total, statePlusLongest }),
    costPerRequest,
    runs,
    costTotal: costPerRequest * runs,
  };
}
