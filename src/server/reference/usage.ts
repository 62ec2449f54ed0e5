// Input-token accounting with the project's one tokenizer. Counting runs in steps that pause every couple of
// milliseconds, so a long state never holds the event loop; it stops once a limit is certainly passed, since the
// request is refused then anyway. Question and state counts are cached by content, and only for requests that are
// admitted: file runs repeat the questions with every row, and compare, variants and robustness checks repeat states.
import type { EvaluateRequest, FieldError, Question } from '../../contract';
import { MAX_REQUEST_INPUT_TOKENS, MAX_STATE_PLUS_QUESTION_TOKENS } from '../../contract';
import type { RequestTokens } from '../../contract/tokens';
import { questionTokensInSteps, stateTokensInSteps, tallyTokens } from '../../contract/tokens';
import { keyBytes, keyOf, stateKeyOf } from './contentKey';
import { Lru } from './judge/lru';

// Values are numbers, so the keys are the bytes (short JSON, or a digest of long JSON: see contentKey).
const QUESTION_TOKENS_CACHE_LIMIT = 4_000;
const QUESTION_TOKENS_CACHE_BYTES = 8 * 1024 * 1024;
const questionCache = new Lru<string, number>(QUESTION_TOKENS_CACHE_LIMIT, QUESTION_TOKENS_CACHE_BYTES);
// States vary more than questions (one per row), so more entries.
const STATE_TOKENS_CACHE_LIMIT = 20_000;
const STATE_TOKENS_CACHE_BYTES = 16 * 1024 * 1024;
const stateCache = new Lru<string, number>(STATE_TOKENS_CACHE_LIMIT, STATE_TOKENS_CACHE_BYTES);

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

/** Entries and estimated bytes of the state token-count cache. */
export const stateTokenCacheStats = (): { entries: number; bytes: number } => ({
  entries: stateCache.size,
  bytes: stateCache.bytes,
});

/** Entries and estimated bytes of the question token-count cache. */
export const questionTokenCacheStats = (): { entries: number; bytes: number } => ({
  entries: questionCache.size,
  bytes: questionCache.bytes,
});

/**
 * The same figures as `requestTokens` from src/contract/tokens, counted in slices of at most SLICE_MS between pauses,
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
  const stateKey = stateKeyOf(request.state).key;
  const knownState = stateCache.get(stateKey);
  const state =
    knownState ?? (await drive(stateTokensInSteps(request.state), MAX_STATE_PLUS_QUESTION_TOKENS));
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
      if (partial) return;
      if (knownState === undefined) stateCache.set(stateKey, state, keyBytes(stateKey));
      for (const [key, n] of fresh) questionCache.set(key, n, keyBytes(key));
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
