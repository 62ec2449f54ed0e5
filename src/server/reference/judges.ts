// The seam between the reference service and whatever answers its questions. The service keeps auth, validation,
// rate limits, faults, usage and the answer shapes; a judge only lists its models, resolves ids and answers.
import type { Answer, EvaluateRequest, FieldError, Loc, ModelCard } from '../../contract';
import { LEXICAL_JUDGE_LABEL } from '../../contract';
import { judge as lexicalAnswers } from './judge';
import type { ModelVersion } from './judge';
import { MODEL_CATALOGUE, resolveModel } from './models';

/** One implementation of the reference service's answers. */
export interface Judge {
  /** Who answers, as the workbench shows it beside the target and each answer ("local: model.gguf"). */
  readonly label: string;
  /** The aliases this judge lists on GET /v1/models. */
  models(): readonly ModelCard[];
  /** The versioned id an alias or versioned id runs on this judge, or null when the id is not this judge's. */
  resolve(id: string): string | null;
  /**
   * Answers every question, one answer per question name, in the contract's shapes and rounding. Rejects with a
   * JudgeRefusal for a request this judge cannot take (the service answers 422), or with the signal's reason.
   */
  answer(
    request: EvaluateRequest,
    versionedId: string,
    signal: AbortSignal | null,
  ): Promise<Record<string, Answer>>;
  /** Settles when the judge can answer (a model file loaded); the service waits for it before using the judge. */
  readonly ready?: Promise<unknown>;
  /** Releases what the judge holds (a loaded model); pending answers are aborted. */
  close(): Promise<void>;
}

/** A request that is valid for the contract but that this judge cannot take: the service turns it into a 422. */
export class JudgeRefusal extends Error {
  readonly errors: FieldError[];
  constructor(message: string, loc: Loc) {
    super(message);
    this.name = 'JudgeRefusal';
    this.errors = [{ loc, msg: message }];
  }
}

/** The deterministic lexical judge (stemmed BM25 and a lexicon), under the three versioned configurations. */
export const lexicalJudge: Judge = Object.freeze({
  label: LEXICAL_JUDGE_LABEL,
  models: () => MODEL_CATALOGUE,
  resolve(id: string): string | null {
    const r = resolveModel(id);
    return r.ok ? r.id : null;
  },
  answer: (request: EvaluateRequest, versionedId: string) =>
    Promise.resolve(lexicalAnswers(request, versionedId as ModelVersion)),
  close: () => Promise.resolve(),
});

export type JudgeResolution = { ok: true; id: string; judge: Judge } | { ok: false; error: FieldError };

/**
 * Resolves a model string across the judges, first match wins (the lexical judge comes last). An unknown id gets the
 * lexical judge's sentence, extended with the other judges' aliases so the caller sees every choice.
 */
export function resolveAcross(judges: readonly Judge[], id: string): JudgeResolution {
  for (const judge of judges) {
    const resolved = judge.resolve(id);
    if (resolved !== null) return { ok: true, id: resolved, judge };
  }
  const lexical = resolveModel(id);
  if (lexical.ok) return { ok: true, id: lexical.id, judge: lexicalJudge };
  const others = judges
    .filter((j) => j !== lexicalJudge)
    .flatMap((j) => j.models().map((m) => m.name))
    .join(', ');
  if (others === '') return lexical;
  const msg = lexical.error.msg.replace(/\.$/, '');
  return {
    ok: false,
    error: { ...lexical.error, msg: `${msg}; this service also answers from a model file as ${others}.` },
  };
}

/** Every judge's listed models, in judge order. */
export const catalogueOf = (judges: readonly Judge[]): ModelCard[] => judges.flatMap((j) => j.models());
