import type { TargetLimits } from './targets';
// A target's own limits (questions per request, options, levels, context), which differ between servers
// (Cloudflare 64 questions, Perplexity 128, OpenAI 400; Ollama 2-26 levels; docs/dialects.md). The editor's checks
// and the rows runner use the chosen target's, so a request is flagged before it is sent.
import { MAX_LEVELS, MAX_OPTIONS, MAX_REQUEST_INPUT_TOKENS } from './limits';
import type { EvaluateRequest } from './request';
import type { FieldError } from './validation';

// The limits' schema is the target description's (./targets): one shape for the config file, the proxy and the app.

/** The contract's own limits, for a target that states none. */
export const CONTRACT_LIMITS: Required<Omit<TargetLimits, 'questions'>> & { questions?: number } = {
  options: MAX_OPTIONS,
  levels: MAX_LEVELS,
  contextTokens: MAX_REQUEST_INPUT_TOKENS,
};

/**
 * Field errors of a request against a target's limits, each naming the target; the token context is checked by the
 * caller that counts tokens (`inputTokens`), when given.
 */
export function targetLimitProblems(
  request: Pick<EvaluateRequest, 'questions'>,
  limits: TargetLimits | undefined,
  target: string,
  inputTokens?: number,
): FieldError[] {
  if (!limits) return [];
  const problems: FieldError[] = [];
  const names = Object.keys(request.questions);
  if (limits.questions !== undefined && names.length > limits.questions)
    problems.push({
      loc: ['questions'],
      msg: `${target} takes at most ${limits.questions} questions per request; this one has ${names.length}. Split it or choose another target.`,
    });
  for (const name of names) {
    const q = request.questions[name]!;
    if (
      q.type === 'choice' &&
      limits.options !== undefined &&
      Object.keys(q.criteria).length > limits.options
    )
      problems.push({
        loc: ['questions', name, 'criteria'],
        msg: `${target} takes at most ${limits.options} options; this question has ${Object.keys(q.criteria).length}.`,
      });
    if (q.type === 'score' && limits.levels !== undefined && q.criteria.length > limits.levels)
      problems.push({
        loc: ['questions', name, 'criteria'],
        msg: `${target} takes at most ${limits.levels} levels; this question has ${q.criteria.length}.`,
      });
  }
  if (limits.contextTokens !== undefined && inputTokens !== undefined && inputTokens > limits.contextTokens)
    // Marked on the state, where a long request's bulk nearly always is.
    problems.push({
      loc: ['state'],
      msg: `${target} reads at most ${limits.contextTokens.toLocaleString()} input tokens; this request has about ${inputTokens.toLocaleString()}. Shorten the state or send fewer questions.`,
    });
  return problems;
}
