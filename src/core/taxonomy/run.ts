// Large taxonomies, running: a plan asked coarse to fine, one request per level, until a label is left.
import { estimateCost } from '../../contract';
import type { ChoiceAnswer, ChoiceQuestion, EvaluateRequest, EvaluateResponse, State } from '../../contract';
import { errorText } from '../../contract/text';
import type { PlanGroup, PlanOption, TaxonomyPlan } from './plan';

/** The question name every request of a run uses. */
export const TAXONOMY_QUESTION = 'taxonomy';
const DEFAULT_INSTRUCTIONS = 'Which label fits best?';

/** What a run needs: where it starts, what it judges, and the evaluate call (the real client in the app). */
export interface TaxonomyRunInput {
  plan: TaxonomyPlan;
  state: State;
  /** The question, as for one choice question; each request adds a line saying which step it is. */
  instructions: string;
  model: string;
  evaluate: (request: EvaluateRequest, signal?: AbortSignal) => Promise<EvaluateResponse>;
  signal?: AbortSignal;
  /** Called as each step ends, so the path can be drawn while the next request is under way. */
  onStep?: (step: TaxonomyStep) => void;
}

/** One request of a run: what was offered, what came back, and which option it leads to. */
export interface TaxonomyStep {
  /** 0-based. */
  index: number;
  /** The group whose options were offered ('' for the first request). */
  group: string;
  /** Where the request chose: the group's tree path, then its name when it is an automatic group ([] first). */
  trail: string[];
  request: EvaluateRequest;
  question: ChoiceQuestion;
  answer: ChoiceAnswer;
  chosen: PlanOption;
  /** Probability of the chosen option, as the service rounded it. */
  probability: number;
  confidence: number;
  inputTokens: number;
  /** The versioned id the service resolved the model to. */
  resolvedModel: string;
}

/** The outcome of a run: the label, how it was reached, and what it cost. */
export interface TaxonomyResult {
  label: string;
  /** The label's path in the pasted tree, ending with the label. */
  path: string[];
  /** The option chosen at each step, automatic groups included. */
  route: string[];
  steps: TaxonomyStep[];
  /** The last request's question and answer: the distribution over the chosen group's labels. */
  final: { question: ChoiceQuestion; answer: ChoiceAnswer };
  /** Product of the chosen options' probabilities: the chance of this label under the whole route. */
  pathProbability: number;
  inputTokens: number;
  /** Estimated, at the published price. */
  cost: number;
}

/** Why a run stopped before a label; carries the steps that did finish. */
export class TaxonomyRunError extends Error {
  override readonly name = 'TaxonomyRunError';
  constructor(
    message: string,
    readonly steps: TaxonomyStep[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The instructions one step sends: the user's question, then what this step chooses among. */
export function stepInstructions(instructions: string, group: PlanGroup): string {
  const base = instructions.trim() || DEFAULT_INSTRUCTIONS;
  const groups = group.options.filter((o) => o.kind === 'group').length;
  const where = group.path.length > 0 ? ` under "${group.path.join(' > ')}"` : '';
  const what =
    groups === group.options.length
      ? `The labels${where} are grouped: choose the group that holds the best label (each group lists its labels).`
      : groups > 0
        ? `Choose the best label${where}, or the group that holds it (each group lists its labels).`
        : group.path.length > 0
          ? `Choose among the labels${where}.`
          : '';
  return what ? `${base}\n\n${what}` : base;
}

/** The choice question offered for a group's options. */
export function stepQuestion(instructions: string, group: PlanGroup): ChoiceQuestion {
  return {
    type: 'choice',
    instructions: stepInstructions(instructions, group),
    criteria: Object.fromEntries(group.options.map((o) => [o.key, o.description])),
  };
}

/**
 * Runs a plan coarse to fine: one request per level, each offering the options of the group chosen before, until a
 * label is chosen. A group with a single option is entered without a request. Rejects with a TaxonomyRunError (its
 * `cause` is the evaluate error) holding the finished steps.
 */
export async function runTaxonomy(input: TaxonomyRunInput): Promise<TaxonomyResult> {
  const { plan, state, instructions, model, evaluate, signal, onStep } = input;
  if (plan.leafCount < 2)
    throw new TaxonomyRunError('A taxonomy needs at least two labels to choose from.', []);
  const steps: TaxonomyStep[] = [];
  const route: string[] = [];
  let group: PlanGroup = plan.root;
  let pathProbability = 1;
  for (;;) {
    let chosen: PlanOption;
    if (group.options.length === 1) {
      chosen = group.options[0]!;
    } else {
      const question = stepQuestion(instructions, group);
      const request: EvaluateRequest = { state, model, questions: { [TAXONOMY_QUESTION]: question } };
      let response: EvaluateResponse;
      try {
        response = await evaluate(request, signal);
      } catch (error) {
        const why = errorText(error);
        throw new TaxonomyRunError(
          steps.length === 0 ? why : `Step ${steps.length + 1} failed: ${why}`,
          [...steps],
          { cause: error },
        );
      }
      const answer = response.answers[TAXONOMY_QUESTION];
      if (answer?.type !== 'choice') {
        throw new TaxonomyRunError('The service did not answer the choice that was asked.', [...steps]);
      }
      const found = group.options.find((o) => o.key === answer.choice);
      if (!found) {
        throw new TaxonomyRunError(`The service chose "${answer.choice}", which was not offered.`, [
          ...steps,
        ]);
      }
      chosen = found;
      const probability = answer.probabilities[chosen.key] ?? 0;
      pathProbability *= probability;
      const step: TaxonomyStep = {
        index: steps.length,
        group: group.key,
        trail: group.auto ? [...group.path, group.key] : group.path,
        request,
        question,
        answer,
        chosen,
        probability,
        confidence: answer.confidence,
        inputTokens: response.usage.input_tokens,
        resolvedModel: response.model,
      };
      steps.push(step);
      onStep?.(step);
    }
    route.push(chosen.key);
    if (chosen.kind === 'leaf') {
      const last = steps[steps.length - 1]!;
      const inputTokens = steps.reduce((sum, s) => sum + s.inputTokens, 0);
      return {
        label: chosen.key,
        path: chosen.path,
        route,
        steps,
        final: { question: last.question, answer: last.answer },
        pathProbability,
        inputTokens,
        cost: estimateCost(inputTokens),
      };
    }
    group = chosen;
  }
}
