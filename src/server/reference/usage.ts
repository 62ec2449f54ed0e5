// Input-token accounting with the project's one tokenizer. Counting runs in steps that pause every couple of
// milliseconds, so a long state never holds the event loop; it stops once a limit is certainly passed, since the
// request is refused then anyway. Question counts are cached by content, and only for requests that are admitted.
import type { EvaluateRequest, FieldError, Question } from '../../contract';
import { MAX_REQUEST_INPUT_TOKENS, MAX_STATE_PLUS_QUESTION_TOKENS } from '../../contract';
import type { RequestTokens } from '../../core/tokens';
import { questionTokensInSteps, stateTokensInSteps, tallyTokens } from '../../core/tokens';
import { keyOf } from './contentKey';
import { Lru } from './judge/lru';

// Keys are 28-byte digests and values numbers, so entries bound the bytes: about 4,000 x 100 bytes.
const QUESTION_TOKENS_CACHE_LIMIT = 4_000;
const ENTRY_BYTES = 100;
const questionCache = new Lru<string, number>(QUESTION_TOKENS_CACHE_LIMIT);

/** Longest stretch of counting between pauses. */
const SLICE_MS = 2;

/** Gives other requests a turn: setImmediate runs after pending I/O, unlike a resolved promise. */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A request's token accounting, and the question counts to remember once the request is admitted. */
export interface CountedRequest {
  tokens: RequestTokens;
  /** True when counting stopped early because a limit was passed: the figures are then lower bounds. */
  partial: boolean;
  /** Caches this request's question counts; call it only for a request that is served. */
  remember(): void;
}

/** Entries and estimated bytes of the question token-count cache. */
export const questionTokenCacheStats = (): { entries: number; bytes: number } => ({
  entries: questionCache.size,
  bytes: questionCache.size * ENTRY_BYTES,
});

/**
 * The same figures as `requestTokens` from src/core/tokens, counted in slices of at most SLICE_MS between pauses,
 * each question's count looked up by its content first. Stops early (partial) once the state alone passes the
 * state-plus-question limit or the running total passes the request limit.
 */
export async function countRequestTokens(
  request: Pick<EvaluateRequest, 'state' | 'questions'>,
): Promise<CountedRequest> {
  let sliceStart = performance.now();
  let partial = false;
  // Runs one counting generator, pausing once a slice is spent; stops (partial) once its count passes `cap`.
  const drive = async (steps: Generator<number, number>, cap: number): Promise<number> => {
    let counted = 0;
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      counted += step.value;
      if (counted > cap) {
        partial = true;
        return counted;
      }
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
    }
  };
  const state = await drive(stateTokensInSteps(request.state), MAX_STATE_PLUS_QUESTION_TOKENS);
  if (state > MAX_STATE_PLUS_QUESTION_TOKENS) partial = true;
  const questions: Record<string, number> = {};
  const fresh: Array<[string, number]> = [];
  let sum = state;
  for (const [name, q] of Object.entries(request.questions) as Array<[string, Question]>) {
    if (partial) break;
    const { key } = keyOf(q);
    let n = questionCache.get(key);
    if (n === undefined) {
      const cap = Math.min(MAX_REQUEST_INPUT_TOKENS - sum, MAX_STATE_PLUS_QUESTION_TOKENS - state);
      n = await drive(questionTokensInSteps(q), cap);
      fresh.push([key, n]);
    }
    questions[name] = n;
    sum += n;
    if (sum > MAX_REQUEST_INPUT_TOKENS || state + n > MAX_STATE_PLUS_QUESTION_TOKENS) partial = true;
  }
  return {
    tokens: tallyTokens(state, questions),
    partial,
    remember: () => {
      if (!partial) for (const [key, n] of fresh) questionCache.set(key, n, ENTRY_BYTES);
    },
  };
}

/**
 * Field errors for the token limits, located where the bulk is: the 64k total at ["state"] when the state outweighs
 * the questions (else ["questions"]), the 32k state-plus-longest-question at ["state"] or at that question.
 */
export function tokenLimitErrors(tokens: RequestTokens, partial = false): FieldError[] {
  const errors: FieldError[] = [];
  // Counting stopped at the limit: the figures are what was counted by then, so they read "at least".
  const least = partial ? 'at least ' : '';
  const questionSum = tokens.total - tokens.state;
  if (tokens.total > MAX_REQUEST_INPUT_TOKENS) {
    errors.push({
      loc: tokens.state >= questionSum ? ['state'] : ['questions'],
      msg: `The request holds ${least}${tokens.total} input tokens (state ${tokens.state}, questions ${questionSum}); the limit is ${MAX_REQUEST_INPUT_TOKENS}.`,
    });
  }
  if (tokens.statePlusLongest > MAX_STATE_PLUS_QUESTION_TOKENS) {
    let longestName = '';
    let longest = -1;
    for (const [name, n] of Object.entries(tokens.questions)) {
      if (n > longest) [longestName, longest] = [name, n];
    }
    errors.push(
      longestName === ''
        ? {
            loc: ['state'],
            msg: `The state alone holds ${least}${tokens.state} tokens; the state plus the longest question may hold ${MAX_STATE_PLUS_QUESTION_TOKENS}.`,
          }
        : {
            loc: tokens.state >= longest ? ['state'] : ['questions', longestName],
            msg: `The state (${least}${tokens.state} tokens) plus the longest question "${longestName}" (${longest} tokens) hold ${least}${tokens.statePlusLongest} tokens; the limit is ${MAX_STATE_PLUS_QUESTION_TOKENS}.`,
          },
    );
  }
  return errors;
}
