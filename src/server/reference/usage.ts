// Input-token accounting with the project's one tokenizer; question counts are cached since questions repeat.
import type { EvaluateRequest, FieldError } from '../../contract';
import { MAX_REQUEST_INPUT_TOKENS, MAX_STATE_PLUS_QUESTION_TOKENS } from '../../contract';
import type { RequestTokens } from '../../core/tokens';
import { questionTokens, stateTokens } from '../../core/tokens';
import { Lru } from './judge/lru';

const QUESTION_TOKENS_CACHE_LIMIT = 4_000;
const questionCache = new Lru<string, number>(QUESTION_TOKENS_CACHE_LIMIT);

/** The same figures as `requestTokens` from src/core/tokens, with each question's count remembered by its JSON. */
export function countRequestTokens(request: Pick<EvaluateRequest, 'state' | 'questions'>): RequestTokens {
  const state = stateTokens(request.state);
  const questions: Record<string, number> = {};
  let sum = 0;
  let longest = 0;
  for (const [name, q] of Object.entries(request.questions)) {
    const key = JSON.stringify(q);
    let n = questionCache.get(key);
    if (n === undefined) {
      n = questionTokens(q);
      questionCache.set(key, n);
    }
    questions[name] = n;
    sum += n;
    longest = Math.max(longest, n);
  }
  return { state, questions, total: state + sum, statePlusLongest: state + longest };
}

/**
 * Field errors for the token limits, located where the bulk is: the 64k total at ["state"] when the state outweighs
 * the questions (else ["questions"]), the 32k state-plus-longest-question at ["state"] or at that question.
 */
export function tokenLimitErrors(tokens: RequestTokens): FieldError[] {
  const errors: FieldError[] = [];
  const questionSum = tokens.total - tokens.state;
  if (tokens.total > MAX_REQUEST_INPUT_TOKENS) {
    errors.push({
      loc: tokens.state >= questionSum ? ['state'] : ['questions'],
      msg: `The request holds ${tokens.total} input tokens (state ${tokens.state}, questions ${questionSum}); the limit is ${MAX_REQUEST_INPUT_TOKENS}.`,
    });
  }
  if (tokens.statePlusLongest > MAX_STATE_PLUS_QUESTION_TOKENS) {
    let longestName = '';
    let longest = -1;
    for (const [name, n] of Object.entries(tokens.questions)) {
      if (n > longest) [longestName, longest] = [name, n];
    }
    errors.push({
      loc: tokens.state >= longest ? ['state'] : ['questions', longestName],
      msg: `The state (${tokens.state} tokens) plus the longest question "${longestName}" (${longest} tokens) hold ${tokens.statePlusLongest} tokens; the limit is ${MAX_STATE_PLUS_QUESTION_TOKENS}.`,
    });
  }
  return errors;
}
