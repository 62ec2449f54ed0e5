// Opt-in distortions of the reference's answers, applied where answers leave the judge, so a robustness check can be
// shown to find what is there: REFERENCE_ORDER_BIAS favours whatever option is sent first (or last), and
// REFERENCE_NOISE makes identical requests return different probabilities, as batch-dependent back ends do. Both
// off (the default): answers pass through untouched, byte for byte. The noise follows REFERENCE_SEED.
import type { Answer, EvaluateRequest, Question } from '../../contract';
import { seededRandom } from '../../contract/random';
import { choiceAnswer, noulAnswer, scoreAnswer, softmax } from './judge/answers';

/** A logit added to the option in one position of every choice question. */
export interface OrderBias {
  position: 'first' | 'last';
  logit: number;
}

export interface AnswerPerturbation {
  orderBias: OrderBias | null;
  /** Standard deviation of Gaussian noise added to every logit, per request; 0 for none. */
  noise: number;
}

export const NO_PERTURBATION: AnswerPerturbation = Object.freeze({ orderBias: null, noise: 0 });

// Logits beyond this turn every answer into a certainty, which is no longer a realistic bias or noise.
const MAX_LOGIT = 10;
// A rounded probability of 0 still had some mass: this stands in for it when taking logarithms.
const FLOOR = 1e-4;

/** Parses "first=1.5", "last=0.8" or a bare "1.5" (first); "" or "0" is off. Throws an Error naming the problem. */
export function parseOrderBias(spec: string): OrderBias | null {
  const text = spec.trim().toLowerCase();
  if (text === '') return null;
  const m = /^(?:(first|last)\s*=\s*)?(-?\d+(?:\.\d+)?)$/.exec(text);
  const logit = m ? Number(m[2]) : NaN;
  if (!m || !Number.isFinite(logit) || logit < 0 || logit > MAX_LOGIT)
    throw new Error(
      `REFERENCE_ORDER_BIAS "${spec}" is not a bias: write "first=1.5" or "last=1.5" (a logit from 0 to ${MAX_LOGIT} added to the option in that position), or a bare number for the first.`,
    );
  return logit === 0 ? null : { position: (m[1] as 'first' | 'last' | undefined) ?? 'first', logit };
}

/** Parses the noise's standard deviation in logits, 0 to MAX_LOGIT; "" is off. */
export function parseNoise(spec: string): number {
  const text = spec.trim();
  if (text === '') return 0;
  const sd = Number(text);
  if (!Number.isFinite(sd) || sd < 0 || sd > MAX_LOGIT)
    throw new Error(
      `REFERENCE_NOISE "${spec}" is not a noise level: write a standard deviation in logits from 0 to ${MAX_LOGIT} (0.3 moves probabilities by a few points).`,
    );
  return sd;
}

/** Reads REFERENCE_ORDER_BIAS and REFERENCE_NOISE; throws one Error naming every bad variable. */
export function perturbationFromEnv(env: Record<string, string | undefined>): AnswerPerturbation {
  const problems: string[] = [];
  let orderBias: OrderBias | null = null;
  let noise = 0;
  try {
    orderBias = parseOrderBias(env.REFERENCE_ORDER_BIAS ?? '');
  } catch (e) {
    problems.push((e as Error).message);
  }
  try {
    noise = parseNoise(env.REFERENCE_NOISE ?? '');
  } catch (e) {
    problems.push((e as Error).message);
  }
  if (problems.length) throw new Error(problems.join(' '));
  return { orderBias, noise };
}

/** Describes the distortions in a line, for the start-up banner. */
export function describePerturbation(p: AnswerPerturbation): string {
  const parts: string[] = [];
  if (p.orderBias) parts.push(`order bias ${p.orderBias.position}=${p.orderBias.logit}`);
  if (p.noise > 0) parts.push(`noise sd ${p.noise}`);
  return parts.length ? parts.join(', ') : 'none';
}

/** The function answers pass through on their way out; the identity when nothing is switched on. */
export type AnswerFilter = (
  request: EvaluateRequest,
  answers: Record<string, Answer>,
) => Record<string, Answer>;

/**
 * Makes the filter for one reference app. The noise draws come from their own seeded stream (not the faults'), so
 * the same seed and the same sequence of requests give the same answers, and switching noise on does not move faults.
 */
export function createAnswerFilter(p: AnswerPerturbation, seed: number): AnswerFilter {
  if (!p.orderBias && !(p.noise > 0)) return (_request, answers) => answers;
  const random = seededRandom((seed ^ 0x5eed0b1a) >>> 0);
  // Box-Muller: one standard normal draw per call.
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const jitter = (): number => (p.noise > 0 ? p.noise * normal() : 0);
  const logitsOf = (values: readonly number[]): number[] => values.map((x) => Math.log(Math.max(FLOOR, x)));

  const distort = (question: Question, answer: Answer): Answer => {
    if (question.type === 'choice' && answer.type === 'choice') {
      const labels = Object.keys(question.criteria);
      const logits = logitsOf(labels.map((l) => answer.probabilities[l] ?? 0));
      if (p.orderBias) logits[p.orderBias.position === 'first' ? 0 : labels.length - 1]! += p.orderBias.logit;
      return choiceAnswer(
        labels,
        softmax(
          logits.map((x) => x + jitter()),
          1,
        ),
      );
    }
    // Score levels keep their order (it is their meaning): noise only.
    if (question.type === 'score' && answer.type === 'score') {
      if (!(p.noise > 0)) return answer;
      const logits = logitsOf(question.criteria.map((_, i) => answer.probabilities[String(i)] ?? 0));
      return scoreAnswer(
        question.criteria,
        softmax(
          logits.map((x) => x + jitter()),
          1,
        ),
      );
    }
    if (question.type === 'noul' && answer.type === 'noul') {
      if (!(p.noise > 0)) return answer;
      const y = Math.min(1 - FLOOR, Math.max(FLOOR, answer.noul));
      return noulAnswer(1 / (1 + Math.exp(-(Math.log(y / (1 - y)) + jitter()))));
    }
    return answer;
  };

  return (request, answers) =>
    Object.fromEntries(
      Object.entries(answers).map(([name, answer]) => {
        const question = request.questions[name];
        return [name, question ? distort(question, answer) : answer];
      }),
    );
}
