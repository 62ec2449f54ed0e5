// Judge configurations: each versioned model is the same method with different, explainable settings.

export const MODEL_VERSIONS = ['model-1.12.0', 'model-1.13.0', 'model-1.14.0'] as const;
/** A versioned model id the reference serves. */
export type ModelVersion = (typeof MODEL_VERSIONS)[number];

/** The knobs of the judge; see docs/reference-judge.md for what each does. */
export interface JudgeConfig {
  /** Softmax temperature for choice and score: lower is sharper. */
  temperature: number;
  /** BM25 term-frequency saturation and length normalisation over the criteria texts. */
  k1: number;
  b: number;
  /** Saturation of repeated terms in the state (BM25's k3). */
  k3: number;
  /** Weight of state fields named in backticks in the question's instructions. */
  fieldWeight: number;
  /** Weight of the other fields when the instructions name some (1 = not discounted). */
  otherFieldWeight: number;
  /** Content terms after "not", "no", "never", "n't"... that are read as negated (0 would turn negation off). */
  negationWindow: number;
  /** How much a negated state term counts against the same term in a criterion. */
  negationPenalty: number;
  /** Weight of lexicon concept matches (e.g. "charged" ~ "payments") against exact stem matches (1). */
  conceptWeight: number;
  /**
   * Weight of a malfunction word in the state ("failing", "error", "is down", "not working") against a topic word (1):
   * what is wrong with a thing says more about who should handle it than the thing's domain does.
   */
  malfunctionWeight: number;
  /** Weight of the lexicon's sentiment/urgency cues. */
  affectWeight: number;
  /** Whether multi-word cues ("third time", "all sorted") are read as phrases. */
  phraseCues: boolean;
  /** Logit of catch-all labels ("other", "none"...): they win when nothing else matches. */
  catchAllPrior: number;
  /** noul: logit when there is no evidence either way (below 0 leans to "no"). */
  noulBias: number;
  /** noul: logit per unit of lexical evidence (yes minus no). */
  noulLexicalGain: number;
  /** noul: logit per unit of cue alignment with what the question asks about. */
  noulAffectGain: number;
  /** score: width of the bell around the state's position on the scale (in scale units, 0..1 apart end to end). */
  scaleWidth: number;
}

const BASE: JudgeConfig = {
  temperature: 1,
  k1: 1.2,
  b: 0.75,
  k3: 1.5,
  fieldWeight: 3,
  otherFieldWeight: 0.6,
  negationWindow: 3,
  negationPenalty: 0.7,
  conceptWeight: 0.6,
  malfunctionWeight: 4,
  affectWeight: 1,
  phraseCues: true,
  catchAllPrior: 0.5,
  noulBias: -0.4,
  noulLexicalGain: 1.2,
  noulAffectGain: 7,
  scaleWidth: 0.3,
};

/** The three versions; 1.12.0 is the older, looser judge and 1.14.0 the sharper preview. */
export const JUDGE_CONFIGS: Readonly<Record<ModelVersion, Readonly<JudgeConfig>>> = Object.freeze({
  'model-1.12.0': Object.freeze({
    ...BASE,
    temperature: 1.4,
    fieldWeight: 1.5,
    otherFieldWeight: 1,
    negationWindow: 1,
    conceptWeight: 0.3,
    malfunctionWeight: 2,
    affectWeight: 0.6,
    phraseCues: false,
    catchAllPrior: 0.3,
    noulAffectGain: 5,
    scaleWidth: 0.4,
  }),
  'model-1.13.0': Object.freeze({ ...BASE }),
  'model-1.14.0': Object.freeze({
    ...BASE,
    temperature: 0.7,
    fieldWeight: 4,
    otherFieldWeight: 0.35,
    negationWindow: 4,
    conceptWeight: 0.8,
    malfunctionWeight: 5,
    affectWeight: 1.3,
    catchAllPrior: 0.6,
    noulLexicalGain: 1.5,
    noulAffectGain: 9,
    scaleWidth: 0.25,
  }),
});
